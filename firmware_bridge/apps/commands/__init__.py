"""The bodies of the ``tabletop`` commands, by job; cli.py parses the line and calls them."""
