"""click's usage errors in the words of both tools: `error: <what> (<where>)`, the flag or
argument named as the place, and "did you mean" for commands, options and names.

Why: click's stock sentences ("Missing option '--players'.", "Invalid value for '--games':
'x' is not a valid integer.", "(Did you mean one of: '--as', '--json'?)") read differently from
every other error of pnp and the referee, and its suggestions for an option weigh the two
dashes every option shares (`--jsn` suggested `--as`).
"""

from __future__ import annotations

import re

import click
from click import exceptions as ce

from pnp_shared.suggest import did_you_mean


def _options(ctx: click.Context | None) -> list[str]:
    if ctx is None:
        return []
    return [name for p in ctx.command.get_params(ctx) if isinstance(p, click.Option)
            for name in (*p.opts, *p.secondary_opts)]


def _flag(param: click.Parameter | None, hint: object) -> str:
    """The place a parameter error names: its flag (`--players`) or its argument (`MOVE`)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    if param is not None:
        return (param.human_readable_name or "").upper()
    if isinstance(hint, list | tuple):
        return " / ".join(str(h).strip("'\"") for h in hint)
    return str(hint or "").strip("'\"")


def _sentence(text: str) -> str:
    """A click message as one of ours: no full stop, lower case unless it starts with a
    quoted name or a flag."""
    text = " ".join(text.split()).rstrip(".")
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    return text


def _value(message: str) -> str:
    """click's wording of a bad value, in ours."""
    message = re.sub(r"is not a valid integer( range)?", "is not a whole number", message)
    message = re.sub(r"is not a valid float( range)?", "is not a number", message)
    message = re.sub(r"is not one of (.*)", lambda m: "is not one of "
                     + m.group(1).replace("'", "").rstrip("."), message)
    return _sentence(message)


def _help(param: click.Parameter | None) -> str:
    """The first sentence of a parameter's help, to say what a missing one is for."""
    text = getattr(param, "help", None) or ""
    return _sentence(re.split(r"(?<=\.)\s", text.strip(), maxsplit=1)[0]) if text else ""


def translate(e: click.ClickException, path: str) -> tuple[str, str]:
    """(what, where) of a click error raised while running `path` (the command's path)."""
    ctx = getattr(e, "ctx", None)
    where = ctx.command_path if ctx is not None else path
    if isinstance(e, ce.NoSuchCommand):
        known = ctx.command.list_commands(ctx) if isinstance(getattr(ctx, "command", None),
                                                             click.Group) else []
        hint = did_you_mean(e.command_name, known)
        return f"unknown command {e.command_name!r}" + (f": {hint}" if hint else "") + (
            f" (`{ctx.command_path} --help` lists them)" if ctx is not None and not hint
            else ""), where
    if isinstance(e, ce.NoSuchOption):
        hint = did_you_mean(e.option_name, _options(ctx))
        what = f"unknown option {e.option_name}"
        return what + (f": {hint}" if hint else ""), where
    if isinstance(e, ce.MissingParameter):
        flag = _flag(e.param, e.param_hint)
        kind = "option" if isinstance(e.param, click.Option) else "argument"
        purpose = _help(e.param)
        return f"missing {kind} {flag}" + (f": {purpose}" if purpose else ""), where
    if isinstance(e, ce.BadParameter):
        flag = _flag(e.param, e.param_hint)
        return _value(e.message), f"{where} {flag}".strip()
    if isinstance(e, ce.BadOptionUsage):
        name = e.option_name
        if "requires an argument" in e.message or "requires" in e.message:
            return f"{name} needs a value", where
        if "does not take a value" in e.message:
            return f"{name} takes no value", where
        return _sentence(e.message), where
    if isinstance(e, ce.FileError):
        return f"cannot open {e.ui_filename}: {_sentence(e.message)}", where
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", e.message.strip())
    if extra:
        return f"unexpected extra argument {extra.group(1)!r}: quote a value with spaces", where
    return _sentence(e.format_message()), where
