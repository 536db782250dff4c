"""``continual-arc keys new``: a key pair that signs verifications; ``--trust``, the keys a reader trusts."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..submit.signing import new_key_pair
from ..submit.standing import TRUSTED_FOLDER, TrustedKeys, load_trusted

__all__ = ["COMMANDS", "add_commands", "add_trust_argument", "trusted_keys"]

COMMANDS = ("keys",)
"""The top-level commands this module adds."""


def add_trust_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--trust KEY`` (repeatable): a public key the reader trusts besides the repository's."""
    parser.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="KEY",
        help="a public key file (ssh-ed25519 <base64> <name>) whose signatures this reader trusts, "
        f"besides those in the repository's {TRUSTED_FOLDER.name}/ and the local key (repeatable)",
    )


def trusted_keys(args: argparse.Namespace) -> TrustedKeys:
    """The keys a command's reader trusts: the repository's, the local key, and each ``--trust``."""
    return load_trusted([Path(p) for p in getattr(args, "trust", None) or ()])


def _new(args: argparse.Namespace) -> int:
    public = new_key_pair(Path(args.path), args.name)
    print(f"private key {args.path} (mode 0600: keep it secret, never in a repository or a result)")
    print(f"public key  {args.path}.pub, id {public.key_id}")
    print(
        "to have readers trust it, add the public key to the repository as "
        f"{TRUSTED_FOLDER.name}/{args.name}.pub"
    )
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``keys`` and its subcommands to the root parser."""
    p = sub.add_parser("keys", help="Ed25519 keys that sign verifications and stored runs")
    group = p.add_subparsers(dest="keys_command", required=True, metavar="SUBCOMMAND")
    new = group.add_parser(
        "new",
        help="make a key pair: the private key (mode 0600) and PATH.pub",
        description="Make an Ed25519 key pair: the private key at PATH (PKCS#8 PEM, mode 0600) and the "
        "public key at PATH.pub (one OpenSSH line). A key is never overwritten, and never written inside "
        "a result directory or a git work tree.",
    )
    new.add_argument("path", help="where to write the private key (outside any repository)")
    new.add_argument("--name", required=True, help="the name readers know the key by (e.g. a verifier's)")
    new.set_defaults(func=_new)
