"""Per-program argument policy: one row per refused argument, and the look-alikes that pass."""

from __future__ import annotations

import shlex

import pytest

from jarvis.core.policy.argv_policy import argument_refusal, pattern_refusal
from jarvis.core.policy.program_scripts import awk_program_refusal, sed_script_refusal

REFUSED = [
    # wrappers run the command in their arguments
    ("xargs rm", "wrapper"),
    ("env FOO=1 ls", "wrapper"),
    ("env -S 'ls -l'", "wrapper"),
    ("timeout 5 ls", "wrapper"),
    ("nice -n 5 make", "wrapper"),
    ("nohup ls", "wrapper"),
    ("sudo ls", "wrapper"),
    ("command ls", "wrapper"),
    ("builtin cd", "wrapper"),
    ("find . -name x -exec rm {} ;", "wrapper"),
    ("find . -execdir ls ;", "wrapper"),
    ("find . -ok rm {} ;", "wrapper"),
    ("find . -okdir rm {} ;", "wrapper"),
    # find writes and reaches out
    ("find . -delete", "writes_file"),
    ("find . -fprint out", "writes_file"),
    ("find . -fprint0 out", "writes_file"),
    ("find . -fprintf out %p", "writes_file"),
    ("find . -fls out", "writes_file"),
    ("find . /etc -name passwd", "outside_workspace"),
    ("find ~ -name x", "outside_workspace"),
    ("find ../other -name x", "outside_workspace"),
    ("find -L / -name x", "outside_workspace"),
    # inline code
    ("sh -c ls", "inline_code"),
    ("bash -lc ls", "inline_code"),
    ("bash -s", "inline_code"),
    ("zsh -c ls", "inline_code"),
    ("fish -C ls", "inline_code"),
    ("python -c 'print(1)'", "inline_code"),
    ("python3 -Bc 'print(1)'", "inline_code"),
    ("python3.12 -c x", "inline_code"),
    ("python3 -W ignore -c x", "inline_code"),
    ("python3 -", "inline_code"),
    ("node -e x", "inline_code"),
    ("node --eval x", "inline_code"),
    ("node -p x", "inline_code"),
    ("node --require ./x.js app.js", "inline_code"),
    ("node --import ./x.mjs app.js", "inline_code"),
    ("node --env-file=.env app.js", "inline_code"),
    ("perl -e x", "inline_code"),
    ("perl -E x", "inline_code"),
    ("ruby -e x", "inline_code"),
    ("php -r x", "inline_code"),
    ("php -d auto_prepend_file=x.php app.php", "inline_code"),
    ("pwsh -Command x", "inline_code"),
    ("pwsh -c x", "inline_code"),
    ("eval ls", "inline_code"),
    ("source x.sh", "inline_code"),
    # git
    ("git -c core.pager=sh log", "runs_code"),
    ("git -ccore.pager=sh log", "runs_code"),
    ("git --config-env=core.pager=X log", "runs_code"),
    ("git --exec-path=/tmp/x status", "runs_code"),
    ("git --git-dir=/tmp/evil/.git status", "runs_code"),
    ("git --work-tree=/tmp status", "runs_code"),
    ("git -C /tmp/evil status", "outside_workspace"),
    ("git -C ../evil status", "outside_workspace"),
    ("git diff --ext-diff", "runs_code"),
    ("git diff --ext", "runs_code"),  # an abbreviation git accepts
    ("git log --textconv", "runs_code"),
    ("git show --output=/tmp/x", "writes_file"),
    ("git -C sub diff --ext-diff", "runs_code"),
    ("git grep -O x", "runs_code"),
    ("git grep --open-files-in-pager=sh x", "runs_code"),
    ("git clone -c core.fsmonitor=x https://h/r", "runs_code"),
    ("git clone --upload-pack=x https://h/r", "runs_code"),
    ("git clone --template=/tmp/t https://h/r", "runs_code"),
    ("git fetch --upload-pack=x origin", "runs_code"),
    ("git ls-remote -u x origin", "runs_code"),
    ("git push --receive-pack=x origin", "runs_code"),
    ("git archive --exec=x --remote=h HEAD", "runs_code"),
    ("git rebase -x 'make test' main", "runs_code"),
    ("git rebase --exec=x main", "runs_code"),
    ("git difftool -x meld", "runs_code"),
    ("git submodule foreach 'rm -rf x'", "runs_code"),
    ("git bisect run ./x.sh", "runs_code"),
    ("git filter-branch --tree-filter x", "runs_code"),
    ("git config core.pager sh", "runs_code"),
    ("git config --global core.fsmonitor x", "runs_code"),
    ("git config alias.st '!sh'", "runs_code"),
    ("git config diff.x.textconv cat", "runs_code"),
    ("git config filter.x.smudge cat", "runs_code"),
    ("git config credential.helper x", "runs_code"),
    ("git -C sub config core.sshCommand x", "runs_code"),
    ("git config --edit", "runs_code"),
    # npm and friends
    ("npm run build --script-shell=./x", "runs_code"),
    ("npm test --node-options=--require=./x.js", "runs_code"),
    ("npm exec -c 'rm -rf x'", "runs_code"),
    ("npx --call 'rm x'", "runs_code"),
    ("npm config set script-shell ./x", "runs_code"),
    ("npm set node-options=--require=./x", "runs_code"),
    ("pnpm --userconfig=/tmp/x install", "runs_code"),
    ("yarn config set script-shell x", "runs_code"),
    ("npm config get script-shell", "runs_code"),  # reads and writes look alike: both ask
    # pytest
    ("pytest -p evil", "runs_code"),
    ("pytest -pevil", "runs_code"),
    ("pytest -o addopts=-pevil", "runs_code"),
    ("pytest --override-ini=addopts=-pevil", "runs_code"),
    ("pytest --pdbcls=evil:Pdb", "runs_code"),
    ("pytest --basetemp=/home/me", "writes_file"),
    ("pytest /tmp/evil", "outside_workspace"),
    ("pytest ../evil/test_x.py::test_a", "outside_workspace"),
    ("pytest -c /tmp/evil.ini", "outside_workspace"),
    ("pytest --rootdir=/tmp", "outside_workspace"),
    # sed, awk
    ("sed -i s/a/b/ f", "writes_file"),
    ("sed --in-place s/a/b/ f", "writes_file"),
    ("sed 's/a/id/e' f", "runs_code"),
    ("sed '1e id' f", "runs_code"),
    ("sed -n 'w out' f", "writes_file"),
    ("sed 's/a/b/w out' f", "writes_file"),
    ("sed -e p -e 'e id' f", "runs_code"),
    ("sed --expression='e id' f", "runs_code"),
    ("sed -f script.sed f", "runs_code"),
    ("sed '/x/{e id\n}' f", "runs_code"),
    ("awk 'BEGIN{system(\"id\")}'", "runs_code"),
    ("awk '{print | \"sh\"}' f", "runs_code"),
    ("awk 'BEGIN{\"id\" | getline x}'", "runs_code"),
    ("awk '{print > \"out\"}' f", "runs_code"),
    ('awk -F: \'{printf "%s", $1 > "/tmp/x"}\' f', "runs_code"),
    ("awk -f prog.awk f", "runs_code"),
    ("gawk -l filefuncs 'BEGIN{}'", "runs_code"),
    ("gawk -e '@load \"x\"'", "runs_code"),
    ("awk -v x=1 'BEGIN{system(\"id\")}'", "runs_code"),
    # archives, sync, remote shells
    ("tar --to-command=sh -xf a.tar", "runs_code"),
    ("tar --to-com=sh -xf a.tar", "runs_code"),
    ("tar -xf a.tar --checkpoint=1 --checkpoint-action=exec=id", "runs_code"),
    ("tar -I ./x -cf a.tar .", "runs_code"),
    ("tar --use-compress-program=./x -cf a.tar .", "runs_code"),
    ("tar -xf a.tar -C /etc", "outside_workspace"),
    ("tar -xPf a.tar", "writes_file"),
    ("rsync -e 'sh -c id' a b", "runs_code"),
    ("rsync -avze x a b", "runs_code"),
    ("rsync --rsync-path='id' a h:b", "runs_code"),
    ("ssh -o ProxyCommand=id h", "runs_code"),
    ("ssh -oProxyCommand=id h", "runs_code"),
    ("ssh -F /tmp/cfg h", "runs_code"),
    ("scp -S ./x a h:b", "runs_code"),
    ("scp -o ProxyCommand=id a h:b", "runs_code"),
    ("sftp -D ./x h", "runs_code"),
    # pagers, editors, search, others
    ("less +!id f", "runs_code"),
    ("less -o log f", "writes_file"),
    ("less --log-file=log f", "writes_file"),
    ("less -k keys f", "runs_code"),
    ("man -P sh ls", "runs_code"),
    ("man --pager=sh ls", "runs_code"),
    ("man -H firefox ls", "runs_code"),
    ("rg --pre ./x y", "runs_code"),
    ("rg --pre=./x y", "runs_code"),
    ("rg -z y", "runs_code"),
    ("rg --search-zip y", "runs_code"),
    ("rg --hostname-bin=./x y", "runs_code"),
    ("sort -o out f", "writes_file"),
    ("sort --compress-program=./x f", "runs_code"),
    ("make --eval='x: ; id' x", "runs_code"),
    ("make SHELL=./x", "runs_code"),
    ("make -C /tmp/evil", "outside_workspace"),
    ("make -f /tmp/evil.mk", "outside_workspace"),
    ("cargo build --config target.x.runner=./x", "runs_code"),
    ("go test -exec ./x ./...", "runs_code"),
    ("go build -toolexec=./x", "runs_code"),
    ("curl -o ~/.bashrc https://h/x", "writes_file"),
    ("curl -sSLo x https://h/x", "writes_file"),
    ("curl -K cfg https://h", "runs_code"),
    ("wget -O x https://h/x", "writes_file"),
    ("wget -e use_askpass=./x https://h", "runs_code"),
    ("wget -P /etc https://h/x", "outside_workspace"),
    ("zip -T -TT ./x a.zip f", "runs_code"),
    ("vim -c '!id' f", "runs_code"),
    ("vim +'!id' f", "runs_code"),
    ("emacs --eval '(shell-command \"id\")'", "runs_code"),
    ("script -c id", "runs_code"),
    ("tmux new-session 'id'", "runs_code"),
    ("tmux run-shell id", "runs_code"),
    ("yq -i .a=1 f.yaml", "writes_file"),
]

PASSING = [
    "ls -la",
    "git status --short",
    "git log -p -1",
    "git diff --stat",
    "git diff --text",
    "git grep -c pattern",  # `-c` of grep counts; git's global `-c` is before the subcommand
    "git -C sub status",
    "git -C ./sub log",
    "git log -- --ext-diff",  # after `--` it is a path
    "git config user.name x",
    "npm run build",
    "npm test",
    "pytest -q tests/unit",
    "pytest -k 'not slow' -x",
    "pytest --pdb",
    "find . -name '*.py'",
    "find src tests -type f -newer x",
    "find -L . -name x",
    "sed -n 1,5p f",
    "sed -n '/a/,/b/p' f",
    "sed 's/a/b/g' f",
    "sed -E 's|a|b|2' f",
    "sed 'y/abc/xyz/' f",
    "sed '$d' f",
    "sed --sandbox 'e id' f",
    "awk '{print $1}' f",
    "awk -F: '$3 > 1000 {print $1}' /etc/passwd",
    "awk -v n=2 'NR==n' f",
    "tar -czf a.tgz src",
    "tar -xf a.tar -C build",
    "rsync -av src/ dst/",
    "ssh h uptime",
    "less f",
    "man ls",
    "rg -n pattern src",
    "sort -u f",
    "make test",
    "make -C sub",
    "cargo build --release",
    "go test ./...",
    "curl -sSL https://h/x",
    "curl -o - https://h/x",
    "wget -qO- https://h/x",
    "wget -O - https://h/x",
    "env",
    "env -u FOO",
    "command -v git",
    "python script.py -c",
    "python -m pytest",
    "bash build.sh",
    "bash -x build.sh -c",
    "node app.js -e",
    "tmux ls",
]


@pytest.mark.parametrize(("command", "reason"), REFUSED)
def test_refused_arguments(command: str, reason: str) -> None:
    refusal = argument_refusal(tuple(shlex.split(command)))
    assert refusal is not None and refusal.reason == reason


@pytest.mark.parametrize("command", PASSING)
def test_look_alikes_pass(command: str) -> None:
    assert argument_refusal(tuple(shlex.split(command))) is None


def test_reading_a_code_key_still_asks() -> None:
    """`git config --get core.pager` only reads; refusing it costs one question and keeps the
    key table simple (reads and writes look alike: `git config core.pager` reads too)."""
    refusal = argument_refusal(("git", "config", "--get", "core.pager"))
    assert refusal is not None and refusal.reason == "runs_code"


@pytest.mark.parametrize(
    ("argv", "consented", "refused"),
    [
        (("sed", "-i", "s/a/b/", "f"), 2, False),  # a `sed -i` rule covers in-place edits
        (("sed", "-i", "s/a/b/", "f"), 1, True),  # a `sed` rule does not
        (("find", "/etc", "-name", "x"), 2, False),  # the path was in the rule
        (("git", "-c", "x=y", "log"), 3, True),  # code-running flags are never consented
        (("sh", "-c", "ls"), 2, True),
    ],
)
def test_consent_of_the_rule_prefix(argv: tuple[str, ...], consented: int, refused: bool) -> None:
    assert (argument_refusal(argv, consented) is not None) is refused


@pytest.mark.parametrize(
    "pattern",
    [
        "find", "xargs", "env", "timeout 5", "sudo", "nice", "nohup", "/usr/bin/env",
        "eval", "source", "exec", ".", "sh -c", "bash -lc", "python -c", "node -e",
        "git -c", "npm --script-shell", "pytest -p", "tar --to-command", "rsync -e",
        "ssh -o", "git submodule foreach", "git config core.pager", "sed -f",
    ],
)  # fmt: skip
def test_rules_that_may_not_exist(pattern: str) -> None:
    assert pattern_refusal(tuple(shlex.split(pattern))) is not None


@pytest.mark.parametrize(
    "pattern", ["git status", "git", "sed -i", "ls -la", "pytest", "python", "bash", "npm run"]
)
def test_rules_that_may_exist(pattern: str) -> None:
    assert pattern_refusal(tuple(shlex.split(pattern))) is None


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("p", None),
        ("1,5p", None),
        ("s/a/b/g", None),
        ("s/a\\/e/b/g", None),
        ("/x/!d;s/a/b/", None),
        ("$!N;P;D", None),
        (":a;N;$!ba;s/\\n/ /g", None),
        ("1i\\\nheader", None),
        ("r other.txt", None),
        ("e id", "runs_code"),
        ("s/a/b/e", "runs_code"),
        ("s/a/b/gew", "runs_code"),
        ("w out", "writes_file"),
        ("1W out", "writes_file"),
        ("s/a/b/w out", "writes_file"),
        ("/x/{\ne id\n}", "runs_code"),
        ("s/a/b", "runs_code"),  # not understood: refused
        ("k", "runs_code"),
    ],
)
def test_sed_scripts(script: str, reason: str | None) -> None:
    assert sed_script_refusal(script) == reason


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("{print $1}", None),
        ("$3 > 1000 {print}", None),
        ('BEGIN{system("id")}', "runs_code"),
        ('{print | "sort"}', "runs_code"),
        ('{print > "f"}', "runs_code"),
        ('{"date" | getline d}', "runs_code"),
    ],
)
def test_awk_programs(program: str, reason: str | None) -> None:
    assert awk_program_refusal(program) == reason


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        # a flag checked once is not a pass for a later, different use of it
        ("git -C . -C /tmp/evil status", "outside_workspace"),
        ("git log" + " -x" * 5000 + " --output=/tmp/out", "writes_file"),
        ("wget -O - -O /tmp/x http://h", "writes_file"),
        ("sort -o - -o out", "writes_file"),
    ],
)
def test_a_repeated_flag_is_judged_again_when_its_value_changes(command: str, reason: str) -> None:
    refusal = argument_refusal(tuple(shlex.split(command)))
    assert refusal is not None and refusal.reason == reason
