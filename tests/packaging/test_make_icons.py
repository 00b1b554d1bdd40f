"""packaging/make_icons.py: the icon's PNGs, ICO and ICNS, read back."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtGui import QImage

REPO = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def load_make_icons() -> ModuleType:
    spec = importlib.util.spec_from_file_location("carwars_make_icons",
                                                  REPO / "packaging" / "make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def icons(tmp_path_factory: pytest.TempPathFactory, qapp: object) -> Path:
    out = tmp_path_factory.mktemp("icons")
    load_make_icons().make_icons(out)
    return out


def test_pngs_have_their_size_and_are_not_empty(icons: Path) -> None:
    make_icons = load_make_icons()
    for size in make_icons.PNG_SIZES:
        image = QImage(str(icons / f"carwars-desktop-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        centre = image.pixelColor(size // 2, size // 2)
        corner = image.pixelColor(0, 0)
        assert centre.alpha() == 255  # the car is drawn…
        assert corner.alpha() < 255  # …on a transparent square with rounded corners


def test_ico_holds_every_size_as_png(icons: Path) -> None:
    data = (icons / "carwars-desktop.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, 7)
    sizes = []
    for index in range(count):
        width, height, _, _, planes, bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * index: 22 + 16 * index])
        image = data[offset: offset + length]
        real = png_size(image)
        assert real == (width or 256, height or 256)
        assert (planes, bits) == (1, 32)
        sizes.append(real[0])
    assert sizes == [16, 24, 32, 48, 64, 128, 256]


def test_icns_elements_are_pngs_of_their_type_size(icons: Path) -> None:
    data = (icons / "carwars-desktop.icns").read_bytes()
    assert data[:4] == b"icns"
    assert struct.unpack(">I", data[4:8])[0] == len(data)
    found = {}
    position = 8
    while position < len(data):
        kind = data[position: position + 4]
        length = struct.unpack(">I", data[position + 4: position + 8])[0]
        found[kind] = png_size(data[position + 8: position + length])[0]
        position += length
    assert position == len(data)
    assert found == {b"icp4": 16, b"icp5": 32, b"icp6": 64, b"ic07": 128, b"ic08": 256,
                     b"ic09": 512, b"ic10": 1024, b"ic11": 32, b"ic12": 64, b"ic13": 256,
                     b"ic14": 512}


def test_ico_refuses_sizes_it_cannot_hold() -> None:
    with pytest.raises(ValueError, match="1 to 256 pixels"):
        load_make_icons().ico_bytes({512: PNG_SIGNATURE})


@pytest.mark.qt_log_ignore("Cannot read file")
def test_a_broken_svg_is_refused(tmp_path: Path, qapp: object) -> None:
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg")
    with pytest.raises(ValueError, match="not a valid SVG"):
        load_make_icons().render_png(broken, 16)
