"""Rules match the canonical command (issue 23 item 2): a program's global options taken out
before deny and allow rules are matched, and judged (`canonical`, `program_globals`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.policy.argv_policy import pattern_refusal
from jarvis.core.policy.canonical import canonical_command, deny_forms
from jarvis.core.policy.patterns import explain_pattern
from jarvis.core.policy.rules import Rule, RuleSet, match_shell_rules
from jarvis.core.policy.shell import analyze_shell

ALLOW, DENY, ASK = "allow", "deny", "none"
GIT_PUSH_DENIED = ("allow git", "deny git push")


def rules_of(*specs: str) -> RuleSet:
    return RuleSet(
        Rule(tool="bash", action=action, pattern=pattern)
        for action, pattern in (spec.split(" ", 1) for spec in specs)
    )


def match(command: str, specs: tuple[str, ...]) -> tuple[str, str]:
    found = match_shell_rules(analyze_shell(command), rules_of(*specs), now_ms=0, fingerprint=None)
    return found.outcome, found.reason


# Every spelling of a push, under a shared `git push` deny rule and a `git` ALWAYS rule.
PUSH_SPELLINGS = [
    "git push", "git --no-pager push", "git -P push", "git -p push", "git --paginate push",
    "git -C . push", "git -C sub push origin main", "git -C /tmp/elsewhere push",
    "git --git-dir=.git push", "git --git-dir .git push", "git --work-tree=. push",
    "git --work-tree . push", "git --namespace=x push", "git --namespace x push",
    "git --no-optional-locks push", "git --exec-path=/usr/lib/git-core push",
    "git --bare push", "git --literal-pathspecs push", "git --glob-pathspecs push",
    "git --noglob-pathspecs push", "git --icase-pathspecs push", "git --no-replace-objects push",
    "git --config-env=core.pager=PAGER push", "git -c core.sshCommand=ssh push",
    "git -c alias.p=push p", "git -P -C . --no-pager -c a.b=c --no-optional-locks push -f",
    "/usr/bin/git -P push", "'git' --no-pager 'push'", "git --no-pager pu''sh",
    "/usr/lib/git-core/git-push origin", "env git -P push", "timeout 5 git -C . push",
    "sh -c 'git --no-pager push'", "git status && git -P push", "git --bogus push",
    "git --shallow-file x push", "git -c 'alias.p=!git push' p",
    "git -c 'alias.p=!true && git -P push' p",
    # plumbing and other commands that push (`program_globals` spellings)
    "git send-pack ../remote.git main", "git -P send-pack x main", "git http-push url main",
    "/usr/lib/git-core/git-send-pack x main", "git subtree push --prefix=d origin main",
    "git -c remote.origin.pushurl=/tmp/x push", "git -c alias.sp=send-pack sp x main",
]  # fmt: skip


@pytest.mark.parametrize("command", PUSH_SPELLINGS)
def test_a_push_deny_rule_blocks_every_spelling(command: str) -> None:
    assert match(command, GIT_PUSH_DENIED)[0] == DENY
    assert match(command, ("deny git push",))[0] == DENY


CASES = [
    # allow rules match the canonical command when its global options are harmless
    ("git -P status", ("allow git status",), ALLOW),
    ("git --no-pager log --oneline", ("allow git log",), ALLOW),
    ("git -C sub status", ("allow git status",), ALLOW),
    ("git --no-optional-locks -P diff", ("allow git diff",), ALLOW),
    ("git -v", ("allow git version",), ALLOW),
    # ... never when one names another place or a config override
    ("git -C /etc status", ("allow git status",), ASK),
    ("git -C ../x status", ("allow git status",), ASK),
    ("git -c core.pager=sh status", ("allow git status",), ASK),
    ("git -c alias.x=!sh x", ("allow git",), ASK),
    ("git --git-dir=/x/.git status", ("allow git status",), ASK),
    ("git --exec-path=/tmp status", ("allow git status",), ASK),
    ("git --bogus status", ("allow git status",), ASK),
    ("git -P log --ext-diff", ("allow git log",), ASK),
    ("git -C /etc status", ("allow git",), ASK),
    ("./git -P status", ("allow git status",), ASK),
    ("GIT_DIR=x git -P status", ("allow git status",), ASK),
    # npm: options anywhere, commands abbreviated
    ("npm --prefix web test", ("allow npm test",), ALLOW),
    ("npm --silent run build", ("allow npm run build",), ALLOW),
    ("npm t", ("allow npm test",), ALLOW),
    ("npm test --prefix=/elsewhere", ("allow npm test",), ASK),
    ("npm --prefix /elsewhere test", ("allow npm test",), ASK),
    ("npm test -C ../other", ("allow npm test",), ASK),
    ("npm run test --workspace=/x/pkg", ("allow npm run",), ASK),
    ("npm -w ../pkg test", ("allow npm",), ASK),
    ("npm --userconfig=x test", ("allow npm test",), ASK),
    ("npm --prefix x publ", ("allow npm", "deny npm publish"), DENY),
    ("npm run --if-present deploy", ("allow npm", "deny npm run deploy"), DENY),
    ("npm --registry http://x publish", ("allow npm", "deny npm publish"), DENY),
    ("npm --bogus publish", ("allow npm", "deny npm publish"), DENY),
    ("pnpm --dir /elsewhere test", ("allow pnpm test",), ASK),
    ("pnpm -C web test", ("allow pnpm test",), ALLOW),
    ("yarn --cwd /elsewhere test", ("allow yarn test",), ASK),
    # docker / kubectl
    ("docker -H tcp://prod:2375 ps", ("allow docker ps",), ASK),
    ("docker --context prod ps", ("allow docker ps",), ASK),
    ("docker -D ps", ("allow docker ps",), ALLOW),
    ("docker -l debug push img", ("allow docker", "deny docker push"), DENY),
    # other spellings of a push match the push deny rule (`program_globals` spellings)
    ("docker image push img", ("allow docker", "deny docker push"), DENY),
    ("docker image push img", ("deny docker push",), DENY),
    ("docker -D image push img", ("allow docker image", "deny docker push"), DENY),
    ("docker manifest push list", ("allow docker", "deny docker push"), DENY),
    ("docker compose push", ("allow docker", "deny docker push"), DENY),
    ("docker image ls", ("allow docker", "deny docker push"), ALLOW),
    ("podman push img", ("allow podman", "deny podman push"), DENY),
    ("podman --log-level debug image push img", ("allow podman", "deny podman push"), DENY),
    ("podman --url tcp://x manifest push l", ("allow podman", "deny podman push"), DENY),
    ("podman -r ps", ("allow podman ps",), ALLOW),
    ("podman --url tcp://x ps", ("allow podman ps",), ASK),
    ("podman --runtime /tmp/x ps", ("allow podman ps",), ASK),
    ("kubectl -n kube-system get pods", ("allow kubectl get",), ALLOW),
    ("kubectl --kubeconfig=/x get pods", ("allow kubectl get",), ASK),
    ("kubectl --context prod get pods", ("allow kubectl get",), ASK),
    ("kubectl -nprod delete pod x", ("allow kubectl", "deny kubectl delete"), DENY),
    ("kubectl get pods -n x", ("allow kubectl get",), ALLOW),
    # python -m: the module's own rules and argument policy
    ("python -m pip install x", ("allow python", "deny pip install"), DENY),
    ("python3 -X dev -m pip install x", ("allow python3", "deny pip install"), DENY),
    ("python -m pytest tests", ("allow pytest",), ALLOW),
    ("/tmp/python -m pytest tests", ("allow pytest",), ASK),
]


@pytest.mark.parametrize(("command", "specs", "expected"), CASES)
def test_canonical_matching(command: str, specs: tuple[str, ...], expected: str) -> None:
    assert match(command, specs)[0] == expected


TEST_RUNNERS = [
    ("python -m pytest /tmp/x/test_a.py", ASK),
    ("python -m pytest tests/test_a.py", ALLOW),
    ("python -m pytest -p evil tests", ASK),
    ("python -m pytest -pevil tests", ASK),
    ("python -m pytest --rootdir=/tmp tests", ASK),
    ("python -m pytest -c /tmp/x.ini tests", ASK),
    ("python -m pytest --confcutdir=/ tests", ASK),
    ("python -m pytest --confcutdir=. tests", ALLOW),
    ("python3 -B -m pytest ../x", ASK),
    ("python -mpytest ~/x", ASK),
]


@pytest.mark.parametrize(("command", "expected"), TEST_RUNNERS)
def test_test_runners_get_pytest_policy(command: str, expected: str) -> None:
    assert match(command, ("allow python -m pytest",))[0] == expected
    assert match(command, ("allow python", "allow python3"))[0] == expected


def test_a_python_dash_m_pytest_rule_with_a_plugin_is_refused() -> None:
    assert pattern_refusal(("python", "-m", "pytest", "-p", "x")) is not None


def test_canonical_forms() -> None:
    canon = canonical_command(("git", "-C", "/x", "-P", "push", "-f"))
    assert canon is not None
    assert canon.argv == ("git", "push", "-f")
    assert canon.positions == (0, 4, 5)
    assert canon.refusal is not None and canon.refusal.reason == "outside_workspace"
    assert canonical_command(("ls", "-l")) is None
    assert canonical_command(("python", "script.py")) is None
    assert canonical_command(("python", "-c", "x")) is None
    assert ("git", "push") in deny_forms(("git", "-c", "alias.p=push", "p"))
    assert deny_forms(("git", "push")) == ()


@pytest.mark.parametrize(
    ("command", "pattern", "reason"),
    [
        ("git -P status", "git status", None),
        ("git -C sub log -n 3", "git log", None),
        ("python -m pytest tests", "pytest tests", None),
        ("npm --prefix web test", "npm test", None),
        ("kubectl -n x get pods", "kubectl get", None),
        ("git -C /etc status", None, "outside_workspace"),  # never `git -C`: every place
        ("git -c core.pager=sh log", None, "runs_code"),
        ("docker -H tcp://x ps", None, "outside_workspace"),
        ("kubectl --kubeconfig=k get pods", None, "runs_code"),
    ],
)
def test_always_offers_the_canonical_prefix(
    command: str, pattern: str | None, reason: str | None
) -> None:
    assert explain_pattern("bash", {"command": command}, Path("/w")) == (pattern, reason)
    if pattern is not None:  # the rule ALWAYS would save covers the call it was offered for
        assert match(command, (f"allow {pattern}",))[0] == ALLOW


def test_a_rule_naming_another_daemon_or_cluster_covers_it() -> None:
    assert match("kubectl --context prod get pods", ("allow kubectl --context prod get",))[0] == (
        ALLOW
    )
    assert match("kubectl --context prod get pods", ("allow kubectl get",))[0] == ASK
    assert match("docker -H tcp://h:2375 ps", ("allow docker -H tcp://h:2375 ps",))[0] == ALLOW
    assert pattern_refusal(("kubectl", "--kubeconfig=k", "get")) is not None  # exec plugins
    assert pattern_refusal(("docker", "--config", "d", "ps")) is not None  # credential helpers
