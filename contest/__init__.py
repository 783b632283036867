"""The competition maths both competitions share (pure: the standard library and the scorer)."""
