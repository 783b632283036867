"""The tournaments' pages, by part: the public pages of an event (``public``), a club's pages
and a night's money (``club``), the club director's desk (``direct``), a night's story
(``recap``) and the ACC reports (``reports``). The urls name each module."""
