"""Team leagues as the English pubs and the Legion play them: boards, legs, divisions, cups."""
