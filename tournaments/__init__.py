"""Club nights and ACC-style tournaments: qualifying rounds, scorecards, the cut and the bracket."""
