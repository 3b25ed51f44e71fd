"""Import files of at most 1 MiB that would store far more than they weigh,
or cost the readers more than their size says, each with the verdict the
import must give: the end-to-end test uploads them through nginx and
scripts/bench-import times them and reads the backend's peak RSS.

- shared references: a binary or XML property list (Codable or keyed
  archive) that names one item, or one list, thousands of times;
- deep nesting: containers inside containers in each format;
- many tiny lists: far more than the 500 a visitor may keep;
- escaping-heavy text: `&`, which the stored XML writes as five bytes;
- non-ASCII text: UTF-16 strings in a binary plist (two bytes each, three
  stored) and UTF-8 in JSON and Markdown.

`legitimate()` is the other side: files near the 1 MiB upload and within
what a visitor can keep, which must still be imported.
"""
import json
import plistlib
import struct

from app_fixtures import _Archive, _uids_as_dicts

MEBIBYTE = 1 << 20
# Words of the refusal an over-budget import gets (see ImportBudget).
OVER_BUDGET = "would take more than 2 MB once stored"


class Upload:
    def __init__(self, name, file_name, content, status, words):
        assert len(content) <= MEBIBYTE - 1024, (name, len(content))  # room for the form
        self.name, self.file_name, self.content = name, file_name, content
        self.status, self.words = status, words


def _item(text):
    return {"text": text, "checked": False, "shouldRemind": False, "itemID": 1}


def _json_export(lists):
    return json.dumps({"format": "checklists", "version": 1, "exportedAt": "2025-03-01T12:00:00Z",
                       "lists": lists}, ensure_ascii=False, separators=(",", ":")).encode()


def _json_list(name, texts):
    return {"name": name, "items": [{"text": t, "checked": False} for t in texts]}


def _keyed_archive_of_shared(lists, items, text, fmt):
    """An archive of `lists` lists that all name one items array, which names
    one item `items` times."""
    archive = _Archive()
    item = archive.instance("ChecklistItem", {"Text": archive.add(text), "Checked": False,
                                              "DueDate": plistlib.UID(0), "ShouldRemind": False,
                                              "ItemID": 1})
    shared = archive.array([item] * items)
    name = archive.add("x")
    icon = archive.add("Folder")
    checklist = archive.instance("Checklist", {"Name": name, "Items": shared, "IconName": icon})
    root = archive.array([checklist] * lists)
    plist = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"Checklists": root},
             "$objects": archive.objects}
    if fmt == plistlib.FMT_XML:
        plist = _uids_as_dicts(plist)
    return plistlib.dumps(plist, fmt=fmt, sort_keys=False)


def _binary_nested_arrays(depth):
    """A binary plist of `depth` arrays, each holding the next (plistlib's
    writer recurses, so it is written by hand)."""
    body = bytearray()
    offsets = []
    for index in range(depth):
        offsets.append(8 + len(body))
        if index + 1 < depth:
            body += b"\xa1" + struct.pack(">I", index + 1)
        else:
            body += b"\xa0"
    table = 8 + len(body)
    trailer = struct.pack(">6xBBQQQ", 4, 4, depth, 0, table)
    return b"bplist00" + bytes(body) + b"".join(struct.pack(">I", o) for o in offsets) + trailer


def amplifying():
    """Every amplifying upload, each refused with a clear sentence."""
    ampersands = "&" * 1000
    cjk = "漢" * 1000
    shared_item = _item(ampersands)
    shared_list = {"name": "x", "items": [shared_item] * 5000, "iconName": "Folder"}
    uploads = [
        # Issue 24's file: 6 KB naming one list 10 times, one item 5,000 times.
        Upload("codable binary, shared list and item", "Checklists.plist",
               plistlib.dumps([shared_list] * 10, fmt=plistlib.FMT_BINARY), 422, OVER_BUDGET),
        Upload("codable binary, 500 lists of one shared list", "Checklists.plist",
               plistlib.dumps([shared_list] * 500, fmt=plistlib.FMT_BINARY), 422, OVER_BUDGET),
        Upload("codable binary, shared non-ASCII item", "Checklists.plist",
               plistlib.dumps([{"name": "x", "items": [_item(cjk)] * 5000, "iconName": "Folder"}] * 10,
                              fmt=plistlib.FMT_BINARY), 422, OVER_BUDGET),
        Upload("keyed archive binary, shared UIDs", "Checklists.plist",
               _keyed_archive_of_shared(500, 5000, ampersands, plistlib.FMT_BINARY), 422, OVER_BUDGET),
        Upload("keyed archive XML, shared UIDs", "Checklists.plist",
               _keyed_archive_of_shared(10, 5000, ampersands, plistlib.FMT_XML), 422, OVER_BUDGET),
        Upload("codable binary, 100,000 tiny lists", "Checklists.plist",
               plistlib.dumps([{"name": "x", "items": [], "iconName": "Folder"}] * 100_000,
                              fmt=plistlib.FMT_BINARY), 422, "more than 500 lists"),
        Upload("binary plist, arrays 100,000 deep", "Checklists.plist",
               _binary_nested_arrays(100_000), 422, "nests containers more than 32 deep"),
        Upload("XML plist, arrays 60,000 deep", "Checklists.plist",
               b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">'
               + b"<array>" * 60_000 + b"</array>" * 60_000 + b"</plist>\n", 422, "more than 32 deep"),
        Upload("JSON, arrays 400,000 deep", "deep.json",
               b'{"format":"checklists","version":1,"lists":' + b"[" * 400_000 + b"]" * 400_000 + b"}",
               422, "not valid JSON"),
        Upload("JSON, 40,000 tiny lists", "tiny.json",
               _json_export([{"name": "x", "items": []}] * 40_000), 422, "more than 500 lists"),
        Upload("JSON, escaping-heavy text", "amp.json",
               _json_export([_json_list("x", [ampersands] * 1000)]), 422, OVER_BUDGET),
        Upload("JSON, non-ASCII text", "cjk.json",
               _json_export([_json_list("x", [cjk] * 330)] * 1), 303, None),
        Upload("Markdown, escaping-heavy text (&)", "amp.md",
               ("# x\n" + f"- [ ] {ampersands}\n" * 1040).encode(), 422, "too intricate to read"),
        Upload("Markdown, escaping-heavy text (>)", "gt.md",
               ("# x\n" + f"- [ ] {'>' * 1000}\n" * 1040).encode(), 422, OVER_BUDGET),
        Upload("Markdown, non-ASCII text", "cjk.md",
               ("# x\n" + f"- [ ] {cjk}\n" * 340).encode(), 303, None),
        Upload("Markdown, 60,000 tiny lists", "tiny.md",
               "".join(f"# {n}\n- [ ] x\n" for n in range(60_000)).encode(), 422,
               "too intricate to read"),
        # The largest trees the Markdown reader parses (TreeSize: 160,000 parts).
        Upload("Markdown, 19,900 tiny lists", "tiny.md",
               "".join(f"# {n}\n- [ ] x\n" for n in range(19_900)).encode(), 422,
               "more than 500 lists"),
        Upload("Markdown, 159,000 ampersands", "amp-limit.md",
               ("# x\n" + f"- [ ] {'&' * 990}\n" * 160).encode(), 303, None),
        Upload("Markdown, block quotes 400,000 deep", "deep.md",
               (">" * 400_000 + " - [ ] x\n").encode(), 422, "nests lists or block quotes more than 32 deep"),
        Upload("Markdown, lists 300,000 deep", "deep-list.md",
               ("- " * 300_000 + "[ ] x\n").encode(), 422, "nests lists or block quotes more than 32 deep"),
    ]
    return uploads


def legitimate():
    """Files near the upload's size that a new visitor can keep: imported."""
    texts = [f"item {n} " + "é" * 60 + " & more" for n in range(5000)]
    return [
        Upload("JSON, 5,000 items near 1 MiB", "big.json", _json_export([_json_list("Big", texts)]),
               303, None),
        Upload("Markdown, 5,000 items", "big.md",
               ("# Big\n" + "".join(f"- [ ] {t}\n" for t in texts)).encode(), 303, None),
        Upload("codable binary, 5,000 items", "Checklists.plist",
               plistlib.dumps([{"name": "Big", "items": [_item(t) for t in texts], "iconName": "Folder"}],
                              fmt=plistlib.FMT_BINARY), 303, None),
    ]
