"""Behind a proxy that ends TLS (README, deployment step 4): nginx takes
the client's address from the proxy's X-Forwarded-For (`set_real_ip_from`,
`real_ip_header`), so the limits per address count clients, not the proxy;
and the backend, told the site's `--public-origin https://…`, sends
`__Host-` and `Secure` cookies although nginx itself speaks plain HTTP."""
import pytest

from proxy import TLSProxy
from stack import Stack
from visitor import Visitor


@pytest.fixture
def proxied(request, certificate_authority):
    """The stack behind a TLS proxy; `request.param`: the change budget."""
    stack = Stack(change_limit=getattr(request, "param", None), real_ip_from="127.0.0.1")
    proxy = TLSProxy(stack, certificate_authority)
    stack.backend_arguments = ["--public-origin", proxy.origin]
    try:
        stack.start()
        yield proxy.start()
    finally:
        proxy.stop()
        stack.stop()


def client(proxy, address):
    return Visitor(proxy, proxy.session(address))


@pytest.mark.parametrize("proxied", [{"CHANGES_PER_SECOND": "1", "CHANGE_BURST": "5"}], indirect=True)
def test_one_client_over_its_change_budget_leaves_the_others_theirs(proxied):
    flooder, neighbour = client(proxied, "127.0.0.2"), client(proxied, "127.0.0.3")
    token = flooder.csrf()
    statuses = [flooder.post("/lists/1/items", {"text": f"flood {n}"}, csrf=token).status_code
                for n in range(12)]
    assert 429 in statuses and 303 in statuses, statuses
    # Same proxy, same moment: another client still has its whole budget.
    token = neighbour.csrf()
    assert [neighbour.post("/lists/1/items", {"text": f"mine {n}"}, csrf=token).status_code
            for n in range(3)] == [303] * 3


@pytest.mark.parametrize("proxied", [{"CHANGES_PER_SECOND": "1", "CHANGE_BURST": "5"}], indirect=True)
def test_a_client_reaching_nginx_directly_cannot_name_another_address(proxied):
    """X-Forwarded-For is believed only from the proxy's address."""
    direct = Visitor(proxied.stack, proxied.session("127.0.0.4"))
    # Without a token each is refused (403) by the backend, if nginx lets
    # it through at all: the count is nginx's.
    statuses = [direct.post("/lists/1/items", {"text": f"forged {n}"}, csrf=False,
                            headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
                for n in range(12)]
    assert 429 in statuses, statuses


def test_wrong_link_codes_are_counted_per_client_not_per_proxy(proxied):
    guesser, neighbour = client(proxied, "127.0.0.2"), client(proxied, "127.0.0.3")
    wrong = {"code": "AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA"}
    token = guesser.csrf()
    statuses = [guesser.post("/link", wrong, csrf=token).status_code for _ in range(11)]
    assert statuses == [422] * 10 + [429], statuses
    assert neighbour.post("/link", wrong).status_code == 422


def test_cookies_are_host_prefixed_and_secure_when_tls_ends_at_the_proxy(proxied):
    visitor = client(proxied, "127.0.0.2")
    response = visitor.get("/lists/1")
    assert response.status_code == 200
    sent = response.raw.headers.getlist("Set-Cookie")
    assert {field.split("=", 1)[0] for field in sent} == {"__Host-visitor", "__Host-ChecklistIndex"}
    assert all("; Secure" in field for field in sent), sent
    # The prefixed cookie names the same visitor on the next request.
    visitor.add_item(1, "behind the proxy")
    assert "behind the proxy" in visitor.get("/lists/1").text
