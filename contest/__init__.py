"""The competition maths both competitions share (pure: the standard library and the scorer).

- :mod:`contest.points`: a game's result as points (the one skunk ladder, from
  ``scoring.outcome.skunk_level``);
- :mod:`contest.draw`: the public, repeatable draw that breaks the last tie;
- :mod:`contest.brackets`: a bracket's size, the one seed order, byes, best-of-N matches;
- :mod:`contest.tiebreaks`: the tie-break metrics, each a key and the field it reads.

The league and the tournaments call these; neither computes them again.
"""
