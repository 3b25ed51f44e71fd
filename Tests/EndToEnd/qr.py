"""Reads a QR code drawn as SVG: librsvg renders it to PNG, ZBar decodes it.

Both come from Debian (librsvg2-bin, zbar-tools; `scripts/install-deps test`
installs them) and share nothing with the backend's encoder, so a code
they read back is one a phone's camera reads too.
"""
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

# Pixels per module in the rendered picture: ZBar wants a few at least.
PIXELS_PER_MODULE = 8


class QRDecodeError(RuntimeError):
    """The SVG could not be rendered, or held no QR code that ZBar read."""


def _tool(name, package):
    path = shutil.which(name)
    if path is None:
        raise QRDecodeError(
            f"{name} is not installed (Debian package {package}; "
            "`scripts/install-deps test` installs it)")
    return path


def _run(command, meanings=None):
    done = subprocess.run(command, capture_output=True, encoding="utf-8", errors="replace",
                          timeout=60)
    if done.returncode != 0:
        meaning = (meanings or {}).get(done.returncode)
        status = f"{done.returncode} ({meaning})" if meaning else str(done.returncode)
        raise QRDecodeError(
            f"{Path(command[0]).name} exited with {status}: {done.stderr.strip()}")
    return done.stdout


def decode_svg(svg_text: str) -> str:
    """The text of the one QR code in `svg_text` (a whole `<svg>` element
    with its xmlns, as the backend writes it, inline in a page or not).

    Raises QRDecodeError with the failing tool's message when the SVG is
    not well-formed, does not render, or holds no code ZBar reads.
    """
    try:
        root = ElementTree.fromstring(svg_text)
    except ElementTree.ParseError as error:
        raise QRDecodeError(f"not well-formed XML: {error}") from None
    rsvg_convert = _tool("rsvg-convert", "librsvg2-bin")
    zbarimg = _tool("zbarimg", "zbar-tools")
    # The view box is in modules (quiet zone included), so the picture's
    # width gives each module a whole number of pixels.
    try:
        modules = max(round(float((root.get("viewBox") or "").split()[2])), 21)
    except (IndexError, ValueError):
        modules = 100
    with tempfile.TemporaryDirectory(prefix="qr-") as directory:
        svg = Path(directory) / "code.svg"
        png = Path(directory) / "code.png"
        svg.write_text(svg_text, encoding="utf-8")
        _run([rsvg_convert, "--width", str(modules * PIXELS_PER_MODULE), "--keep-aspect-ratio",
              "--format", "png", "--output", str(png), str(svg)])
        # QR codes only, raw bytes (no charset guessing), no D-Bus.
        text = _run([zbarimg, "--raw", "-q", "--nodbus", "-Sdisable", "-Sqrcode.enable", str(png)],
                    {4: "no QR code in the picture"})
    # One line per symbol read; a link has no line break of its own.
    lines = text.splitlines()
    if len(lines) != 1:
        raise QRDecodeError(f"expected one QR code, zbarimg read {len(lines)}: {text!r}")
    return lines[0]
