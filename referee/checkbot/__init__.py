"""``arena check-bot``: put one bot through every kind of decision and protocol case, and say what it got wrong."""
