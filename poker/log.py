"""Structured logging for every process of the suite, configured once at start.

Lines are events with key-values (STYLE.md section 5): JSON lines when stderr
is not a terminal, readable key-values when it is. `POKER_LOG_FORMAT=json|console`
forces one, `POKER_LOG_LEVEL` sets the level (default INFO).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

import structlog

_configured = False


def add_log_format_argument(parser: argparse.ArgumentParser) -> None:
    """The `--log-format` option every command takes (one definition for all of them)."""
    parser.add_argument(
        "--log-format", choices=("json", "console"), default=None,
        help="log lines as JSON (one object per line) or readable key-values; default: "
             "$POKER_LOG_FORMAT, else console on a terminal and JSON off one")


def configure(fmt: str | None = None, level: str | None = None) -> None:
    """Sets up structlog for this process; later calls are no-ops."""
    global _configured
    if _configured:
        return
    _configured = True
    default = "console" if sys.stderr.isatty() else "json"
    fmt = fmt or os.environ.get("POKER_LOG_FORMAT") or default
    level_name = (level or os.environ.get("POKER_LOG_LEVEL") or "INFO").upper()
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level_name, logging.INFO)
        ),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


def get_logger(name: str, **bound: Any) -> Any:
    """A logger carrying `logger_name=name` and any bound key-values.

    Lazy: a module-level logger made before `configure()` still follows the
    configuration once it is set (binding here would freeze the defaults).
    """
    return structlog.get_logger(logger_name=name, **bound)
