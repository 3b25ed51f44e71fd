"""The iOS Checklists app's Checklists.plist, assembled from its published structure.

Two forms, each binary or XML, from the same description as `app-archive-writer` reads
(a dict, or JSON on stdin when run as a program):

    {"form": "keyed-archive" or "codable", "format": "binary" or "xml",
     "classPrefix": "Checklists" or None,    # keyed archive: "Checklists.Checklist"
     "stringObjects": False,                 # keyed archive: texts as NSMutableString
     "lists": [{"name": "Groceries", "icon": "Groceries", "items": [
         {"text": "Milk", "checked": True, "dueDate": 1777626000,  # seconds since 1970
          "shouldRemind": True, "itemID": 1}]}]}

- The keyed archive of the Objective-C / NSCoder editions is laid out as NSKeyedArchiver
  lays it out: a dict with "$archiver" "NSKeyedArchiver", "$version" 100000, "$top"
  {"Checklists": UID of the root array}, and "$objects", whose entry 0 is "$null" (UID 0
  stands for nil). An instance is a dict of the keys its encode(with:) wrote plus "$class",
  the UID of a class description {"$classname", "$classes"}; strings are plain entries
  (or NSMutableString instances holding "NS.string"), an array holds "NS.objects" (UIDs),
  a date "NS.time" (seconds since 2001-01-01 UTC). Binary plists hold UIDs as plistlib.UID;
  XML writes each as {"CF$UID": n}, as CoreFoundation does (plistlib's XML writer has no
  UIDs).
- The plain plist of the Codable editions is an array of {"name", "items", "iconName"},
  each item {"text", "checked", "dueDate" (a plist date, left out when None),
  "shouldRemind", "itemID"}, as PropertyListEncoder writes the app's classes.

`python3 Tests/EndToEnd/app_fixtures.py < description.json > Checklists.plist`
"""
import datetime
import json
import plistlib
import sys

REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
UNIX_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def build(description):
    """The file `description` asks for, as bytes."""
    fmt = plistlib.FMT_XML if description.get("format") == "xml" else plistlib.FMT_BINARY
    if description.get("form", "keyed-archive") == "codable":
        return codable_plist(description["lists"], fmt)
    return keyed_archive(
        description["lists"], fmt, description.get("classPrefix"), description.get("stringObjects", False)
    )


class _Archive:
    """$objects being filled: each add() returns the new entry's UID."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, entry):
        self.objects.append(entry)
        return plistlib.UID(len(self.objects) - 1)

    def class_uid(self, name, superclasses=()):
        if name not in self.classes:
            chain = [name, *superclasses, "NSObject"]
            self.classes[name] = self.add({"$classname": name, "$classes": chain})
        return self.classes[name]

    def instance(self, class_name, fields, superclasses=()):
        return self.add({**fields, "$class": self.class_uid(class_name, superclasses)})

    def array(self, members):
        return self.instance("NSMutableArray", {"NS.objects": list(members)}, ("NSArray",))


def keyed_archive(lists, fmt=plistlib.FMT_BINARY, class_prefix=None, string_objects=False):
    """The NSKeyedArchiver archive of `lists` under the root key "Checklists"."""
    prefix = f"{class_prefix}." if class_prefix else ""
    archive = _Archive()

    def string(text):
        if string_objects:
            return archive.instance("NSMutableString", {"NS.string": text}, ("NSString",))
        return archive.add(text)

    list_uids = []
    for checklist in lists:
        item_uids = []
        for item in checklist.get("items", []):
            due = item.get("dueDate")
            due_uid = plistlib.UID(0)
            if due is not None:
                seconds = float(due) - (REFERENCE_DATE - UNIX_EPOCH).total_seconds()
                due_uid = archive.instance("NSDate", {"NS.time": seconds})
            item_uids.append(
                archive.instance(
                    prefix + "ChecklistItem",
                    {
                        "Text": string(item["text"]),
                        "Checked": bool(item.get("checked", False)),
                        "DueDate": due_uid,
                        "ShouldRemind": bool(item.get("shouldRemind", False)),
                        "ItemID": int(item.get("itemID", 0)),
                    },
                )
            )
        fields = {
            "Name": string(checklist["name"]),
            "Items": archive.array(item_uids),
            "IconName": string(checklist.get("icon", "Folder")),
        }
        list_uids.append(archive.instance(prefix + "Checklist", fields))
    root = archive.array(list_uids)
    plist = {
        "$archiver": "NSKeyedArchiver",
        "$version": 100000,
        "$top": {"Checklists": root},
        "$objects": archive.objects,
    }
    if fmt == plistlib.FMT_XML:
        plist = _uids_as_dicts(plist)
    return plistlib.dumps(plist, fmt=fmt, sort_keys=False)


def _uids_as_dicts(value):
    """The same value with each UID written as XML plists write it: {"CF$UID": n}."""
    if isinstance(value, plistlib.UID):
        return {"CF$UID": value.data}
    if isinstance(value, dict):
        return {key: _uids_as_dicts(member) for key, member in value.items()}
    if isinstance(value, list):
        return [_uids_as_dicts(member) for member in value]
    return value


def codable_plist(lists, fmt=plistlib.FMT_BINARY):
    """The plist PropertyListEncoder wrote for the Codable editions' [Checklist]."""
    result = []
    for checklist in lists:
        items = []
        for item in checklist.get("items", []):
            entry = {"text": item["text"], "checked": bool(item.get("checked", False))}
            if item.get("dueDate") is not None:
                entry["dueDate"] = UNIX_EPOCH + datetime.timedelta(seconds=item["dueDate"])
            entry["shouldRemind"] = bool(item.get("shouldRemind", False))
            entry["itemID"] = int(item.get("itemID", 0))
            items.append(entry)
        result.append({"name": checklist["name"], "items": items, "iconName": checklist.get("icon", "Folder")})
    # plistlib writes naive datetimes as they are: in UTC.
    return plistlib.dumps(_naive_utc(result), fmt=fmt, sort_keys=False)


def _naive_utc(value):
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    if isinstance(value, dict):
        return {key: _naive_utc(member) for key, member in value.items()}
    if isinstance(value, list):
        return [_naive_utc(member) for member in value]
    return value


if __name__ == "__main__":
    sys.stdout.buffer.write(build(json.load(sys.stdin)))
