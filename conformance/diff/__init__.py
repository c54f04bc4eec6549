"""Where two rule versions part: the search for stories they decide differently, the ADRs' own claims, and what is printed."""
