"""decode_svg (qr.py), which the end-to-end tests use to read the QR codes
the backend draws, checked on a code the backend's QRCode module made."""
from pathlib import Path

import pytest

from qr import QRDecodeError, decode_svg

FIXTURES = Path(__file__).parent / "fixtures"


def test_reads_the_link_in_a_code_the_backend_drew():
    # qr-sample.svg: QRCode(text:).svg(label: "QR code of a sample link")
    # of the link below (version 4: 33 modules, level M; 4-pixel modules).
    svg = (FIXTURES / "qr-sample.svg").read_text(encoding="utf-8")
    assert decode_svg(svg) == "http://127.0.0.1:8080/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5"


def test_a_code_inside_a_page_reads_once_cut_out():
    svg = (FIXTURES / "qr-sample.svg").read_text(encoding="utf-8")
    page = f"<!doctype html><main><h1>Devices</h1><figure>{svg}</figure></main>"
    start = page.index("<svg")
    cut = page[start:page.index("</svg>", start) + len("</svg>")]
    assert decode_svg(cut).endswith("/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5")


def test_a_picture_without_a_code_is_an_error_not_a_text():
    blank = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29">'
             '<rect width="29" height="29" fill="#fff"/></svg>')
    with pytest.raises(QRDecodeError, match="zbarimg exited with 4 .no QR code in the picture."):
        decode_svg(blank)


def test_a_broken_svg_is_an_error_with_the_reason():
    with pytest.raises(QRDecodeError, match="not well-formed"):
        decode_svg('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"></svg>')
    # Well-formed XML that librsvg cannot draw: its own message.
    with pytest.raises(QRDecodeError, match="rsvg-convert exited with 1: .*no dimensions"):
        decode_svg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0"/>')
