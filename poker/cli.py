"""The `poker` command: serve the services, replay hand histories, run the demo.

Each subcommand lives in the module that owns it; that module exposes
`add_arguments(parser)` and `run(args) -> int`. They are imported only when
their subcommand runs, so `poker --help` stays fast and a service's
dependencies do not load for another's command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from poker.grpc_engine import prefer_polling_engine

# (command words, module, one-line help)
COMMANDS: list[tuple[tuple[str, ...], str, str]] = [
    (("serve", "evaluator"), "services.evaluator.server", "run the hand evaluator service"),
    (("serve", "dealer"), "services.dealer.server", "run the dealer (tables) service"),
    (("serve", "lobby"), "services.lobby.server", "run the lobby service"),
    (("replay",), "services.dealer.replay", "replay PHH hand histories through the rule engine"),
    (("demo",), "clients.demo", "start the suite locally: six bots play, every chip accounted"),
    (("tournament",), "clients.tournament_demo",
     "start the suite locally: a field of bots plays a tournament to the end (T1-T9)"),
    (("evaluator-demo",), "clients.evaluator_demo",
     "start an evaluator alone and show what it does"),
    (("play",), "clients.play", "play against bots in the terminal"),
    (("acpc",), "clients.acpc", "seat ACPC protocol bots (text over TCP) at a table"),
    (("sandbox",), "clients.sandbox",
     "start the suite with a funded player and a table of house bots; print POKER_LOBBY, "
     "POKER_TOKEN and POKER_TABLE for your bot"),
    (("health",), "poker.healthcheck", "ask a service whether it is serving (grpc.health.v1)"),
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="poker", description=__doc__.splitlines()[0])
    top = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
    for words, module, help_text in COMMANDS:
        if len(words) == 1:
            sub = top.add_parser(words[0], help=help_text, description=help_text)
        else:
            if words[0] not in groups:
                group = top.add_parser(words[0], help=f"{words[0]} a service")
                groups[words[0]] = group.add_subparsers(
                    dest=f"{words[0]}_what", required=True, metavar="SERVICE"
                )
            sub = groups[words[0]].add_parser(words[1], help=help_text, description=help_text)
        sub.set_defaults(_module=module)
        _add_module_arguments(sub, module)
    return parser


def _add_module_arguments(sub: argparse.ArgumentParser, module: str) -> None:
    # Arguments come from the owning module; import cost is paid only for help/parse.
    try:
        mod = importlib.import_module(module)
    except ImportError as err:  # a subcommand whose module is missing says so when run
        sub.set_defaults(_import_error=str(err))
        return
    mod.add_arguments(sub)


def main(argv: Sequence[str] | None = None) -> int:
    prefer_polling_engine()  # first: the subcommands' modules import grpc
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_import_error", None):
        print(f"poker: {args.command}: unavailable: {args._import_error}", file=sys.stderr)
        return 2
    from poker import log

    log.configure(getattr(args, "log_format", None))
    code: int = importlib.import_module(args._module).run(args)
    if args.command == "serve":
        from poker.serving import exit_process

        exit_process(code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
