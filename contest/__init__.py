"""The competition maths both competitions share (pure: the standard library and the scorer).

- :mod:`contest.points`: a game's result as points (the one skunk ladder, from
  ``scoring.outcome.skunk_level``), and the default skunk margins for every target;
- :mod:`contest.tiebreaks`: the tie-break metrics, each a key, the field it reads and its words
  (name, abbreviation, how a rules sheet says it, the mark beside whom it placed), in English
  and marked for the catalogues: each app translates them where it shows them; the named
  chains a tournament picks from (the house's and the ACC's);
- :mod:`contest.draw`: the public, repeatable draw that breaks the last tie;
- :mod:`contest.brackets`: a bracket's size, the one seed order, byes, best-of-N matches and a
  best-of per round (``"1,3,3,5"``, read from the final backwards);
- :mod:`contest.double_elimination`: winners' and losers' brackets from the same seeded draw,
  the grand final and its reset game, replayed from the results recorded;
- :mod:`contest.records`: head-to-head tallies, winning streaks and lifetime milestones;
- :mod:`contest.ratings`: the ratings' bookkeeping (which results are rated, in which order,
  when a rating is still provisional);
- :mod:`contest.winprob`: each side's chance of winning from a position, exact over deals;
- :mod:`contest.luck`: the luck of the cut, and where the dealt cards are known, the discard's
  cost against the best (``luck_split``); :mod:`contest.special_hands`: the hands a night's
  special-hand pots pay for;
- :mod:`contest.crosscheck`: two scorecards of one game checked against each other (ACC Rule
  12.2, clauses (a) to (i));
- :mod:`contest.mrp`: the federation's Master Rating Points of an event, from a points
  schedule given as data.

The league, the tournaments and the federation call these; none computes them again.
"""
