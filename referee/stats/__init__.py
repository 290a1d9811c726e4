"""Statistics of bot-versus-bot results, apart from whatever plays the games (see sprt.py)."""
