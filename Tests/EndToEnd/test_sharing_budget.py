"""What an edit link's holder can do to the rest of the owner's data,
through nginx: a link changes its own list within its own budget, and never
evicts, purges or blocks anything outside it (SPEC §8).

- 110 adds and deletes through the link leave the owner's deleted list in
  Recently Deleted, restorable;
- adds of 12 KB items through the link are refused with a clear page once
  the list's share is used, long before the owner's 2 MiB: the refused add
  changes nothing, the owner's deletions are all there, and the owner can
  still add a 12 KB item to another list.
"""
import re

import requests

from test_sharing import CSRF, NONCE, ROW, share
from visitor import Visitor

RESTORE = re.compile(r'<form class="restore" method="post" action="(/deleted/\d+/restore)">')
# 1,000 characters of 12 bytes each (a CJK ideograph and three combining
# marks of 3 bytes): the largest item text there can be, 12,000 bytes.
LARGEST_TEXT = ("中" + "\u20d0" * 3) * 1000


class LinkHolder:
    """Someone else's browser with an edit link: no cookie of this site."""

    def __init__(self, stack, token):
        self.stack = stack
        self.token = token
        self.session = requests.Session()

    def page(self):
        return self.session.get(self.stack.url(f"/s/{self.token}"), allow_redirects=False)

    def post(self, path, fields, page=None):
        page = page if page is not None else self.page().text
        fields = dict(fields, csrf=CSRF.search(page).group(1))
        return self.session.post(self.stack.url(f"/s/{self.token}{path}"), data=fields,
                                 allow_redirects=False)

    def add(self, text):
        """Adds `text` as the page's own form does; the answer."""
        page = self.page().text
        return self.post("/items", {"text": text, "nonce": NONCE.search(page).group(1)}, page)

    def item_ids(self):
        return [int(found) for found in ROW.findall(self.page().text)]


def owner_with_taxes_deleted(stack):
    """An owner who deleted `Taxes` and keeps `Groceries` (Milk) and `Work`."""
    owner = Visitor(stack)
    taxes = owner.create_list("Taxes")
    owner.add_item(taxes, "Receipts")
    assert owner.post(f"/lists/{taxes}/delete").status_code == 303
    owner.groceries = owner.create_list("Groceries")
    owner.add_item(owner.groceries, "Milk")
    owner.work = owner.create_list("Work")
    return owner


def deleted_names(owner):
    page = owner.get("/deleted")
    assert page.status_code == 200
    return page.text


def test_a_link_that_adds_and_deletes_110_times_leaves_the_owners_deletions(stack):
    owner = owner_with_taxes_deleted(stack)
    holder = LinkHolder(stack, share(owner, owner.groceries, "edit"))
    for attempt in range(110):
        assert holder.add(f"scrap {attempt}").status_code == 303
        added = max(holder.item_ids())
        assert holder.post(f"/items/{added}/delete", {}).status_code == 303
    page = deleted_names(owner)
    assert '<span class="row-title">Taxes</span>' in page, "the link's deletions evicted the owner's"
    # The owner's deletion is still restorable, and comes back whole.
    entry = page.split('<span class="row-title">Taxes</span>', 1)[1]
    assert owner.post(RESTORE.search(entry).group(1)).status_code == 303
    assert any("Receipts" in owner.get(f"/lists/{list_id}").text for list_id in owner.list_ids())
    # The link's own deletions are kept too, within the list's own share.
    assert "scrap 109" in deleted_names(owner)


def test_a_link_is_refused_at_its_lists_share_and_the_owner_keeps_room(stack):
    owner = owner_with_taxes_deleted(stack)
    holder = LinkHolder(stack, share(owner, owner.groceries, "edit"))
    refused = None
    for attempt in range(200):  # 200 × 12 KB is far past the owner's 2 MiB
        answer = holder.add(LARGEST_TEXT[:-(attempt % 50 + 1)])
        if answer.status_code != 303:
            refused = answer
            break
    assert refused is not None, "the link filled the owner's 2 MiB"
    assert refused.status_code in (413, 422), refused.status_code
    # Refused early: the link's share leaves the owner most of the 2 MiB.
    assert attempt * 12_000 <= 1_100_000, attempt
    stored = sum(path.stat().st_size for path in stack.data.rglob("Checklists.plist"))
    assert stored <= 1_300_000, stored
    # A refused add changes nothing.
    before = {path: path.read_bytes() for path in stack.data.rglob("Checklists.plist")}
    assert holder.add(LARGEST_TEXT).status_code == refused.status_code
    assert {path: path.read_bytes() for path in stack.data.rglob("Checklists.plist")} == before
    # The owner is not blocked: a 12 KB item goes into another list.
    answer = owner.post(f"/lists/{owner.work}/items", {"text": LARGEST_TEXT})
    assert answer.status_code == 303, answer.status_code
    assert "Taxes" in deleted_names(owner)
    assert "shared list" in refused.text and "Nothing was changed" in refused.text
    assert f'href="/s/{holder.token}"' in refused.text
    # Deleting through the link still works at the share (it frees room).
    first = holder.item_ids()[-1]
    assert holder.post(f"/items/{first}/delete", {}).status_code == 303
    assert "Taxes" in deleted_names(owner)
