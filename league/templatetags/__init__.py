"""Template tags for the public pages: the cribbage board drawn in SVG."""
