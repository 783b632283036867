"""The competition maths both competitions share (pure: the standard library and the scorer).

- :mod:`contest.points`: a game's result as points (the one skunk ladder, from
  ``scoring.outcome.skunk_level``), and the default skunk margins for every target;
- :mod:`contest.tiebreaks`: the tie-break metrics, each a small class with a key;
- :mod:`contest.draw`: the public, repeatable draw that breaks the last tie;
- :mod:`contest.brackets`: a bracket's size, the one seed order, byes, best-of-N matches;
- :mod:`contest.crosscheck`: two scorecards of one game cross-checked by ACC Rule 12.2;
- :mod:`contest.special_hands`: a game's 24, 28 and 29 hands and fours of a kind;
- :mod:`contest.winprob`: win probability from the board, exact over deals;
- :mod:`contest.luck`: luck of the cut, a show beside its average over every starter;
- :mod:`contest.ratings`: which results are rated, in which order, and when a rating is
  provisional (the rating maths itself is applied by the league);
- :mod:`contest.records`: head-to-head tallies, winning streaks and lifetime milestones.

The league and the tournaments call these; neither computes them again.
"""
