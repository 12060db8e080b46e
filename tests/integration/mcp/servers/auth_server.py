"""An OAuth 2.1 protected MCP server for the tests, built from the SDK's own auth support.

One Starlette app is both the authorization server (metadata discovery, dynamic client
registration, `/authorize` with PKCE, `/token` for authorization codes and refresh tokens) and
the resource server (`/mcp`, streamable HTTP, bearer tokens required) — or the two run on
separate origins, as most hosted servers do. The routes, validation and
PKCE checks are the SDK's (`mcp.server.auth`); only the storage behind them is here, in memory,
with switches the tests turn: deny the next authorization, hand out access tokens that say they
are already expired, revoke every refresh token.

Consent is automatic: `/authorize` redirects straight back to the client's redirect URI, so a
plain HTTP client that follows redirects plays the browser.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    ProviderTokenVerifier,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import create_auth_routes
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.types import ASGIApp

SCOPE = "mcp"
_LIFETIME_SEC = 3600
_REGISTRATION = ClientRegistrationOptions(
    enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
)


@dataclass
class AuthLedger:
    """The authorization server's memory, and what happened (the tests read it)."""

    clients: dict[str, OAuthClientInformationFull] = field(default_factory=dict)
    codes: dict[str, AuthorizationCode] = field(default_factory=dict)
    access: dict[str, AccessToken] = field(default_factory=dict)
    refresh: dict[str, RefreshToken] = field(default_factory=dict)
    grants: list[str] = field(default_factory=list)  # "authorization_code" / "refresh_token"
    tokens_seen: list[str] = field(default_factory=list)  # bearer tokens the tools were called with
    deny: bool = False  # the next authorizations end in error=access_denied
    # The `expires_in` the client is told (0: the token is expired on arrival, so it refreshes).
    announced_lifetime: int = _LIFETIME_SEC

    def revoke_refresh_tokens(self) -> None:
        self.refresh.clear()


class InMemoryAuthProvider:
    """`OAuthAuthorizationServerProvider` over an `AuthLedger`."""

    def __init__(self, ledger: AuthLedger) -> None:
        self.ledger = ledger

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.ledger.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.ledger.clients[client_info.client_id] = client_info

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        if self.ledger.deny:
            raise AuthorizeError("access_denied", "the user declined")
        code = secrets.token_urlsafe(32)
        assert client.client_id is not None
        self.ledger.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.ledger.codes.get(authorization_code)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        del self.ledger.codes[authorization_code.code]
        self.ledger.grants.append("authorization_code")
        return self._issue(client, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        token = self.ledger.refresh.get(refresh_token)
        return token if token is not None and token.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        if self.ledger.refresh.pop(refresh_token.token, None) is None:
            raise TokenError("invalid_grant", "refresh token revoked")
        # Rotation: the access tokens issued before stop working, so a later successful call
        # proves it carried the refreshed token.
        self.ledger.access.clear()
        self.ledger.grants.append("refresh_token")
        return self._issue(client, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.ledger.access.get(token)
        if found is not None:
            self.ledger.tokens_seen.append(token)
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.ledger.access.pop(token.token, None)
        self.ledger.refresh.pop(token.token, None)

    def _issue(
        self, client: OAuthClientInformationFull, scopes: list[str], resource: str | None
    ) -> OAuthToken:
        assert client.client_id is not None
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires_at = int(time.time()) + _LIFETIME_SEC
        self.ledger.access[access] = AccessToken(
            token=access, client_id=client.client_id, scopes=scopes,
            expires_at=expires_at, resource=resource,
        )  # fmt: skip
        self.ledger.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client.client_id, scopes=scopes, resource=resource
        )
        return OAuthToken(
            access_token=access,
            refresh_token=refresh,
            expires_in=self.ledger.announced_lifetime,
            scope=" ".join(scopes),
        )


def build_protected_app(
    port: int, ledger: AuthLedger, *, issuer_port: int | None = None
) -> ASGIApp:
    """The protected server as an ASGI app, for `http://127.0.0.1:<port>/mcp`.

    Without `issuer_port` it is its own authorization server; with it, only the resource server,
    trusting the authorization server there (`build_authorization_server`, same ledger)."""
    base = f"http://127.0.0.1:{port}"
    issuer = f"http://127.0.0.1:{issuer_port or port}"
    provider = InMemoryAuthProvider(ledger)
    settings = AuthSettings(
        issuer_url=AnyHttpUrl(issuer),
        client_registration_options=_REGISTRATION,
        revocation_options=RevocationOptions(enabled=True),
        required_scopes=[SCOPE],
        resource_server_url=AnyHttpUrl(f"{base}/mcp"),
        validate_token_resource=True,
    )
    server = MCPServer(
        "jarvis-protected",
        log_level="WARNING",
        auth_server_provider=None if issuer_port else provider,
        token_verifier=ProviderTokenVerifier(provider) if issuer_port else None,
        auth=settings,
    )

    @server.tool(description="Say who is calling (works only with a valid token).")
    def whoami() -> str:
        return "signed in"

    return server.streamable_http_app()


def build_authorization_server(port: int, ledger: AuthLedger) -> ASGIApp:
    """An authorization server on its own origin (metadata, registration, authorize, token)."""
    routes = create_auth_routes(
        InMemoryAuthProvider(ledger),
        issuer_url=AnyHttpUrl(f"http://127.0.0.1:{port}"),
        client_registration_options=_REGISTRATION,
        revocation_options=RevocationOptions(enabled=True),
    )
    return Starlette(routes=routes)
