"""Search through nginx, as a browser without JavaScript uses it: the GET
form on All Lists, results from every list and from Recently Deleted,
case and accents aside (Cyrillic included), the matches marked, each
result leading to its item. A share link's holder has no way to it."""
import re

import requests

from visitor import Visitor


def test_search_finds_cyrillic_and_accented_text_in_every_list_and_recently_deleted(stack):
    visitor = Visitor(stack)
    home = visitor.create_list("Дом")
    trip = visitor.create_list("Trip")
    visitor.add_item(home, "Купить ёлку")
    visitor.add_item(trip, "Crème solaire")
    visitor.add_item(trip, "Café à emporter")
    cafe = re.findall(r'formaction=\d+/items/(\d+)/toggle ', visitor.get(f"/lists/{trip}").text)[1]
    assert visitor.post(f"/lists/{trip}/items/{cafe}/delete").status_code == 303
    assert 'action="/search"' in visitor.get("/lists").text

    found = visitor.get("/search", params={"q": "ЕЛК"})
    assert found.status_code == 200
    assert "1 found." in found.text and "Купить <mark>ёлк</mark>у" in found.text
    item = re.search(r'href="/lists/(\d+)/items/(\d+)/edit"', found.text)
    assert int(item.group(1)) == home
    assert visitor.get(f"/lists/{home}/items/{item.group(2)}/edit").status_code == 200

    accented = visitor.get("/search", params={"q": "CREME"}).text
    assert "<mark>Crème</mark> solaire" in accented
    deleted = visitor.get("/search", params={"q": "cafe a"}).text
    assert "<mark>Café à</mark> emporter" in deleted and "in Recently Deleted" in deleted

    # Someone else's browser finds nothing of the owner's.
    stranger = Visitor(stack)
    assert "Nothing found." in stranger.get("/search", params={"q": "ёлку"}).text
    # A share link leads to its list only; /s/TOKEN/search is nothing.
    assert visitor.post(f"/lists/{home}/share/edit").status_code == 303
    link = re.search(r'id="share-edit" value="[^"]*(/s/[0-9a-f]{32})"',
                     visitor.get(f"/lists/{home}/edit").text).group(1)
    assert requests.get(stack.url(f"{link}/search"), params={"q": "Crème"}).status_code == 404
