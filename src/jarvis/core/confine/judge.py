"""What the sandbox needs to know about a bash line. Pure.

API:
- `needs_network(command) -> bool`: the line names a program that talks to the network
  (`curl`, `ssh`, `git push`, `pip install`, `npm ci`, `/dev/tcp/…`, …), looked up through
  wrappers (`env`, `timeout`, `python -m pip`); a line that cannot be parsed counts as needing it.
- `argv_needs_network(argv) -> bool`: the same for one simple command.
- `leaves_sandbox(command) -> bool`: programs whose point is to act outside it (`sudo`,
  `docker`, `systemctl`, …) — they fail in it, so a person should see them.
- `network_granted(decision, command) -> bool`: the call may have the network — a person
  approved this very call (`user_once`, `user_always`), or a remembered rule naming a program
  (not a bare `*`) allowed a line that needs it. Nothing else (no approval needed, the
  sandbox's own allow, an owner's tool-wide pre-approval) ever opens the network.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jarvis.core.policy.programs import program_name
from jarvis.core.policy.shell import analyze_shell
from jarvis.core.policy.unwrap import command_starts

NETWORK_PROGRAMS = frozenset(
    {"curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet",
     "ftp", "tftp", "ping", "ping6", "dig", "nslookup", "host", "whois", "traceroute", "nmap",
     "http", "https", "xh", "aria2c", "lynx", "w3m", "links", "gh", "glab", "aws", "gcloud",
     "az", "gsutil", "helm", "npx", "uvx", "pipx", "mvn", "gradle", "gradlew", "./gradlew",
     "ssh-keyscan", "git-lfs", "apt", "apt-get", "brew", "snap", "mosh", "openssl",
     "ssh-copy-id", "sshpass", "ollama", "huggingface-cli", "hf", "yt-dlp", "youtube-dl"}
)  # fmt: skip
# program → subcommands (first non-option word) that reach the network.
NETWORK_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "git": frozenset({"clone", "fetch", "pull", "push", "ls-remote", "submodule", "remote",
                      "send-email", "request-pull", "archive"}),
    "pip": frozenset({"install", "download", "wheel", "search", "index"}),
    "uv": frozenset({"add", "sync", "lock", "pip", "tool", "publish", "run", "venv", "init"}),
    "poetry": frozenset({"install", "add", "update", "lock", "publish", "search"}),
    "npm": frozenset({"install", "i", "ci", "add", "update", "publish", "view", "info",
                      "outdated", "audit", "login", "exec", "init", "create", "search"}),
    "pnpm": frozenset({"install", "i", "add", "update", "publish", "dlx", "outdated", "audit",
                       "create"}),
    "yarn": frozenset({"install", "add", "upgrade", "publish", "dlx", "create", "npm"}),
    "bun": frozenset({"install", "i", "add", "update", "x", "create", "publish"}),
    "cargo": frozenset({"install", "fetch", "update", "publish", "search", "add", "login"}),
    "go": frozenset({"get", "install", "mod"}),
    "gem": frozenset({"install", "update", "push", "fetch"}),
    "bundle": frozenset({"install", "update"}),
    "composer": frozenset({"install", "require", "update"}),
    "dotnet": frozenset({"restore", "add", "tool"}),
    "conda": frozenset({"install", "create", "update"}),
    "twine": frozenset({"upload"}),
    "docker": frozenset({"pull", "push", "login", "build", "run"}),
    "podman": frozenset({"pull", "push", "login", "build", "run"}),
    "kubectl": frozenset({"apply", "get", "delete", "exec", "logs", "port-forward"}),
}  # fmt: skip
_PIP_MODULES = frozenset({"pip", "ensurepip", "pipx", "http.server", "smtplib", "ftplib"})
LEAVING_PROGRAMS = frozenset(
    {"sudo", "su", "doas", "pkexec", "docker", "podman", "systemctl", "service", "launchctl",
     "kubectl", "crontab", "at", "loginctl", "machinectl", "nsenter", "chroot", "mount"}
)  # fmt: skip
_VALUE_OPTIONS = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--prefix", "--cwd", "--dir",
     "--workspace", "-w", "--filter", "--manifest-path", "--config", "--exec-path"}
)  # fmt: skip
_PERSON = frozenset({"user_once", "user_always"})


def needs_network(command: str) -> bool:
    if "/dev/tcp/" in command or "/dev/udp/" in command:
        return True
    analysis = analyze_shell(command)
    if analysis.unsafe:
        return True
    return any(argv_needs_network(c.argv) for c in analysis.commands)


def leaves_sandbox(command: str) -> bool:
    analysis = analyze_shell(command)
    for simple in analysis.commands:
        argv = simple.argv
        if any(program_name(argv[s]) in LEAVING_PROGRAMS for s in command_starts(argv)):
            return True
    return False


def argv_needs_network(argv: tuple[str, ...]) -> bool:
    for start in command_starts(argv):
        name, args = program_name(argv[start]), argv[start + 1 :]
        if name in NETWORK_PROGRAMS or argv[start] in NETWORK_PROGRAMS:
            return True
        if name.startswith("python") and _python_module(args) in _PIP_MODULES:
            return True
        if name.startswith("pip"):
            name = "pip"
        subcommands = NETWORK_SUBCOMMANDS.get(name)
        if subcommands is not None and _subcommand(args) in subcommands:
            return True
    return False


def _python_module(args: tuple[str, ...]) -> str:
    for index, word in enumerate(args):
        if word == "-m" and index + 1 < len(args):
            return args[index + 1]
        if word.startswith("-m") and len(word) > 2:
            return word[2:]
        if not word.startswith("-"):
            return ""
    return ""


def _subcommand(args: tuple[str, ...]) -> str:
    """The first word that is neither an option nor the value of a global option that takes
    one (`git -C dir fetch`, `npm --prefix dir ci`)."""
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word in _VALUE_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            return word
    return ""


def network_granted(decision: Mapping[str, Any] | None, command: str) -> bool:
    if not decision or decision.get("outcome") != "allow":
        return False
    reason = str(decision.get("reason", ""))
    if reason in _PERSON:
        return True
    if reason.startswith("rule:"):
        label = str(decision.get("rule") or "")
        pattern = label.partition(" bash ")[2].strip()
        return bool(pattern) and not pattern.startswith("*") and needs_network(command)
    return False
