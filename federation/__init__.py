"""The layer above the club: regions, points schedules as dated data, results sent up once,
reviewed by a statistician, and the regional and national tables counted from them."""
