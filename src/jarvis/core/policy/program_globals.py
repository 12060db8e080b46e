"""The global options of programs whose options may stand before their subcommand (`git -C dir
push`, `npm --prefix x test`, `docker -H host push`, `kubectl -n ns delete`): plain data, read by
`canonical` to find the subcommand wherever the program puts it. Sources: git.c
`handle_options` (2.39), npm's own config definitions and command list (11.x, extracted with
node), `docker --help` (28.x) and `kubectl options` (1.32); checked against the real programs by
`tests/differential/test_global_options.py`.

An option's kind says what its value does:
- `flag`: no value (`-P`, `--no-pager`, `--workspaces`);
- `value`: a value that changes nothing a rule cares about (`--namespace`, `--loglevel`);
- `path`: a directory or file the program works in: judged like any path argument (outside the
  workspace -> ask);
- `remote`: another daemon, cluster or context (`docker -H`, `kubectl --context`): asked like
  a path outside the workspace, and covered by a rule that names it (`kubectl --context prod`);
- `config`: a value that makes the program run other code (`git -c`, `--exec-path`,
  `--git-dir`, `--kubeconfig` with its `exec` plugins, docker's `--config` with credential
  helpers, `--userconfig`): no rule covers it, the person is asked.
Its form says how the value is given: `next` (`-C dir` only), `equals` (`--exec-path=dir` only;
written bare it is a flag), `either` (`--git-dir dir` or `--git-dir=dir`), `pflag` (either, and a
short one also `-nvalue` / `-n=value`: Go's pflag, used by docker and kubectl).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["flag", "value", "path", "remote", "config"]
Form = Literal["next", "equals", "either", "pflag"]


@dataclass(frozen=True, slots=True)
class Option:
    kind: Kind
    form: Form = "either"


@dataclass(frozen=True)
class ProgramGlobals:
    """`anywhere`: options may follow the subcommand too (npm's nopt, kubectl's cobra), so every
    option word is taken out and the positional words kept in order. `subcommands`/`aliases`/
    `abbreviations`: how the program resolves the word it runs (npm: `publ` is `publish`, `t`
    is `test`). `renames`: a word that, in the subcommand's place, names another (`git -v` is
    `git version`). `spellings`: subcommand words that do what other words do, for deny rules
    (`git send-pack` pushes like `git push`, `docker image push` is `docker push`)."""

    options: Mapping[str, Option]
    anywhere: bool = False
    subcommands: frozenset[str] = frozenset()
    aliases: Mapping[str, str] = field(default_factory=dict)
    abbreviations: bool = False
    renames: Mapping[str, str] = field(default_factory=dict)
    spellings: Mapping[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _options(kind: Kind, form: Form, names: str) -> dict[str, Option]:
    return dict.fromkeys(_names(names), Option(kind, form))


_GIT = {
    **_options(
        "flag",
        "either",
        "-p --paginate -P --no-pager --no-replace-objects --bare --literal-pathspecs "
        "--no-literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "
        "--no-optional-locks --html-path --man-path --info-path",
    ),
    **_options("path", "next", "-C"),
    **_options("config", "next", "-c --shallow-file"),
    # a git directory or work tree brings its own config (core.fsmonitor, hooks): as `-c`;
    # `--namespace` and `--super-prefix` are refused by the argument policy as before
    **_options("config", "either", "--git-dir --work-tree --config-env --namespace"),
    **_options("config", "either", "--super-prefix"),
    **_options("config", "equals", "--exec-path"),
    **_options("value", "equals", "--list-cmds"),
}
_NPM_VALUES = (
    "--_auth --access --allow-directory --allow-file --allow-git --allow-remote --allow-scripts "
    "--also --audit-level --auth-type --before --ca --cache-max --cache-min --cafile --cert "
    "--cidr --cpu --depth --diff --diff-dst-prefix --diff-src-prefix --diff-unified "
    "--expect-result-count --expires --fetch-retries --fetch-retry-factor "
    "--fetch-retry-maxtimeout --fetch-retry-mintimeout --fetch-timeout --heading --https-proxy "
    "--include --init-author-email --init-author-name --init-author-url --init-license "
    "--init-type --init-version --init.author.email --init.author.name --init.author.url "
    "--init.license --init.version --install-strategy --key --libc --local-address --location "
    "--lockfile-version --loglevel --logs-max --maxsockets --message --min-release-age "
    "--min-release-age-exclude --name --noproxy --omit --only --orgs --orgs-permission --os "
    "--otp --package --packages --packages-and-scopes-permission --password --preid "
    "--provenance-file --proxy --registry --replace-registry-host --save-prefix --sbom-format "
    "--sbom-type --scope --scopes --searchexclude --searchlimit --searchopts --searchstaleness "
    "--tag --tag-version-prefix --token-description --umask --user-agent --which -L -m --reg "
    "--enjoy-by"
)
_NPM_FLAGS = (
    "--all --allow-same-version --allow-scripts-pending --allow-scripts-pin --audit --bin-links "
    "--browser --bypass-2fa --color --commit-hooks --dangerously-allow-all-scripts "
    "--description --dev --diff-ignore-all-space --diff-name-only --diff-no-prefix --diff-text "
    "--dry-run --engine-strict --expect-results --force --foreground-scripts "
    "--format-package-lock --fund --git-tag-version --global --global-style --if-present "
    "--ignore-scripts --include-attestations --include-staged --include-workspace-root "
    "--init-private --install-links --json --legacy-bundling --legacy-peer-deps --link --long "
    "--offline --omit-lockfile-registry-resolved --optional --package-lock --package-lock-only "
    "--packages-all --parseable --prefer-dedupe --prefer-offline --prefer-online --production "
    "--progress --provenance --read-only --rebuild-bundle --save --save-bundle --save-dev "
    "--save-exact --save-optional --save-peer --save-prod --shrinkwrap --sign-git-commit "
    "--sign-git-tag --strict-allow-scripts --strict-peer-deps --strict-ssl --timing --unicode "
    "--update-notifier --usage --version --versions --workspaces --workspaces-update --yes "
    "-d --dd --ddd --quiet -q -s --silent --verbose --desc --help --local -n --no --porcelain "
    "--readonly --iwr -ws -a -f -g -l -p -S -B -D -E -O -P -? -H -h -v -y"
)
_NPM = {
    **_options("flag", "either", _NPM_FLAGS),
    **_options("value", "either", _NPM_VALUES),
    **_options(
        "path", "either", "--prefix -C --cache --workspace -w --logs-dir --pack-destination"
    ),
    **_options(
        "config",
        "either",
        "--userconfig --globalconfig --script-shell --node-options --shell --editor --git "
        "--viewer --init-module --init.module --call -c --node-gyp",
    ),
}
_NPM_COMMANDS = _names(
    "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts "
    "deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help "
    "help-search init install install-ci-test install-scripts install-test link ll login logout "
    "ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart "
    "root run sbom search set shrinkwrap stage star stars start stop team test token trust "
    "undeprecate uninstall unpublish unstar update version view whoami"
)
_NPM_ALIASES = {
    "author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view",
    "find": "search", "add": "install", "unlink": "uninstall", "remove": "uninstall",
    "rm": "uninstall", "r": "uninstall", "un": "uninstall", "rb": "rebuild", "list": "ls",
    "ln": "link", "create": "init", "i": "install", "it": "install-test",
    "cit": "install-ci-test", "u": "update", "up": "update", "c": "config", "s": "search",
    "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
    "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test",
    "x": "exec", "why": "explain", "la": "ll", "verison": "version", "ic": "ci",
    "innit": "init", "in": "install", "ins": "install", "inst": "install", "insta": "install",
    "instal": "install", "isnt": "install", "isnta": "install", "isntal": "install",
    "isntall": "install", "install-clean": "ci", "isntall-clean": "ci", "hlep": "help",
    "dist-tags": "dist-tag", "upgrade": "update", "udpate": "update", "rum": "run",
    "sit": "install-ci-test", "urn": "run", "ogr": "org", "add-user": "adduser",
}  # fmt: skip
_PNPM = {
    **_options(
        "flag",
        "either",
        "-r --recursive -w --workspace-root --silent -s --color --no-color --aggregate-output "
        "--stream --parallel --sequential --use-stderr --if-present --fail-if-no-match "
        "-h --help -v --version",
    ),
    **_options("value", "either", "--reporter --loglevel --filter -F --filter-prod"),
    **_options("path", "either", "-C --dir --store-dir --modules-dir --virtual-store-dir"),
    **_options("config", "either", "--config --global-dir --shell-emulator --script-shell"),
}
_YARN = {
    **_options(
        "flag",
        "either",
        "--verbose --offline --prefer-offline --frozen-lockfile --pure-lockfile --silent -s "
        "--no-progress --non-interactive --json --ignore-scripts --no-default-rc -h --help "
        "-v --version",
    ),
    **_options("value", "either", "--registry --network-timeout --mutex"),
    **_options("path", "either", "--cwd --modules-folder --cache-folder --global-folder"),
    **_options("config", "either", "--use-yarnrc --link-folder"),
}
_DOCKER = {
    **_options("flag", "pflag", "-D --debug --tls --tlsverify -v --version -h --help"),
    **_options("value", "pflag", "-l --log-level"),
    **_options("path", "pflag", "--tlscacert --tlscert --tlskey"),
    # a config dir names credential helpers and CLI plugins to run; the rest is another daemon
    **_options("config", "pflag", "--config"),
    **_options("remote", "pflag", "-c --context -H --host"),
}
_KUBECTL = {
    **_options(
        "flag",
        "pflag",
        "--disable-compression --insecure-skip-tls-verify --match-server-version "
        "--warnings-as-errors -h --help",
    ),
    **_options(
        "value",
        "pflag",
        "-n --namespace --request-timeout -v --v --vmodule --log-flush-frequency --profile "
        "--tls-server-name --as --as-group --as-uid --user --username --password --token",
    ),
    **_options(
        "path",
        "pflag",
        "--cache-dir --certificate-authority --client-certificate --client-key --profile-output",
    ),
    # a kubeconfig runs `exec` credential plugins; a context, cluster or server is elsewhere
    **_options("config", "pflag", "--kubeconfig"),
    **_options("remote", "pflag", "--context --cluster -s --server"),
}

_PODMAN = {
    **_options("flag", "pflag", "--help --noout -r --remote --syslog -v --version"),
    **_options("value", "pflag", "--cgroup-manager --events-backend --log-level --namespace"),
    **_options("value", "pflag", "--ssh --storage-driver --storage-opt"),
    **_options("path", "pflag", "--root --runroot --tmpdir --volumepath --network-config-dir"),
    **_options("path", "pflag", "--identity"),
    # programs podman runs for the containers (and their hooks)
    **_options("config", "pflag", "--conmon --hooks-dir --network-cmd-path --runtime"),
    **_options("config", "pflag", "--runtime-flag"),
    **_options("remote", "pflag", "-c --connection --url"),
}
# Other spellings of a subcommand a deny rule names (one table for every program: the words
# after the program, and what they do). Sources: git's plumbing under `push` (send-pack,
# http-push; `subtree push` runs `git push`), `docker image --help`, `docker manifest --help`,
# `docker compose --help`, `podman image --help`, `podman manifest --help`.
_PUSHES: Mapping[tuple[str, ...], tuple[str, ...]] = {
    ("image", "push"): ("push",),
    ("manifest", "push"): ("push",),
    ("compose", "push"): ("push",),  # pushes the services' images
}

GLOBALS: Mapping[str, ProgramGlobals] = {
    "git": ProgramGlobals(
        _GIT,
        renames={"-v": "version", "--version": "version", "-h": "help", "--help": "help"},
        spellings={
            ("send-pack",): ("push",),
            ("http-push",): ("push",),
            ("subtree", "push"): ("push",),
        },
    ),
    "npm": ProgramGlobals(
        _NPM,
        anywhere=True,
        subcommands=_NPM_COMMANDS,
        aliases=_NPM_ALIASES,
        abbreviations=True,
    ),
    "pnpm": ProgramGlobals(_PNPM, anywhere=True),
    "yarn": ProgramGlobals(_YARN, anywhere=True),
    "docker": ProgramGlobals(_DOCKER, spellings=_PUSHES),
    "podman": ProgramGlobals(_PODMAN, spellings=_PUSHES),
    "kubectl": ProgramGlobals(_KUBECTL, anywhere=True),
}
