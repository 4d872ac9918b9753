"""Tools run from the command line: the protocol bot client, the rules-coverage page."""
