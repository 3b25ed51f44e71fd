"""Issue 24, point 1: an import is bounded by what it would store, counted
while the file is read. Through nginx and the real backend, every
amplifying upload of `amplifying_uploads` (shared references, deep
nesting, many tiny lists, escaping-heavy and non-ASCII text) gets its
verdict on the import page with nothing changed, and legitimate files
near the upload's 1 MiB are still imported. (Their time and memory are
measured by scripts/bench-import, not here.)"""
import html

import pytest

import amplifying_uploads
from test_import_export import data_files, import_file, upload
from visitor import Visitor


@pytest.fixture
def newcomer(stack):
    visitor = Visitor(stack)
    visitor.get("/lists")
    return visitor


@pytest.mark.parametrize("case", [u for u in amplifying_uploads.amplifying() if u.status != 303],
                         ids=lambda u: u.name)
def test_an_amplifying_upload_is_refused_with_its_reason_and_changes_nothing(stack, newcomer, case):
    before = data_files(stack)
    response = upload(newcomer, case.file_name, case.content)
    assert response.status_code == 422, (response.status_code, response.text[:500])
    page = html.unescape(response.text)
    assert "<h1>Import</h1>" in page and 'class="error"' in page
    assert case.words in page, page[page.find('class="error"'):][:400]
    assert "Nothing was changed." in page
    assert data_files(stack) == before
    assert not list(stack.data.glob("users/*/*/PendingImport.plist"))
    assert stack.backend.poll() is None


@pytest.mark.parametrize("case", [u for u in amplifying_uploads.amplifying() if u.status == 303]
                         + amplifying_uploads.legitimate(), ids=lambda u: u.name)
def test_a_big_file_within_what_can_be_kept_is_imported(stack, newcomer, case):
    preview = import_file(newcomer, case.file_name, case.content)
    assert "Import Preview" in preview
    assert len(newcomer.list_ids()) == 2
