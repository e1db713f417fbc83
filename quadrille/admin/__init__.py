"""The operator's tools: `python -m quadrille admin ...` (cli.py). Each family of commands is a module of its
own that adds its subcommands to the parser (`add_commands(subparsers)`), listed in cli.COMMAND_MODULES."""
