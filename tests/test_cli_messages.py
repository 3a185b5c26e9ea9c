"""What the command line prints for an import that had to change something: one plain line, no code."""

from __future__ import annotations

import gzip
import subprocess
import sys

import pytest


def test_import_warnings_print_as_one_line(tmp_path):
    path = tmp_path / "noids.csv"
    path.write_text("question,answer\nWhat is a reef?,A ridge of rock\nWho built it?,Robert Stevenson\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "reviewtui: warning: noids.csv: no id column, so rows were numbered q1, q2, ... in file order (2 rows)"
    ]
    assert "noids v1" in done.stdout


def test_nan_in_meta_is_said_before_a_conversion_writes_it_as_null(tmp_path):
    path = tmp_path / "scores.jsonl"
    path.write_text('{"id": "q1", "question": "What is a reef?", "meta": {"score": NaN}}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "convert", str(path), str(tmp_path / "out.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "reviewtui: warning: scores.jsonl: NaN or infinite numbers in the meta of 1 item ('q1' on line 1): JSON has no "
        "form for them, so a file written from this set (convert, export, filter) holds null in their place"
    ]
    assert '"meta":{"score":null}' in (tmp_path / "out.jsonl").read_text(encoding="utf-8")


def test_a_utf16_file_is_one_line_saying_so_and_exit_2(tmp_path):
    path = tmp_path / "wide.jsonl"
    path.write_bytes('{"id": "q1", "question": "What is a reef?"}\n'.encode("utf-16"))
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{path}:1: the file is UTF-16 (it begins with a byte-order mark), not UTF-8; save it as UTF-8 and try again"
    ]


def _zipped(text: str) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", text * 20)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "name, data, said",
    [
        ("set.jsonl.gz", gzip.compress(b'{"id": "q1", "question": "What is a reef?"}\n' * 30), "gzip-compressed"),
        ("set.parquet", b"PAR1\x15\x04\x15\x30\x15\x2e\x4c\x15\x06\x15\x00\x12\x00\x00What is a reef?\x80\xff" + b"\x00" * 40 + b"PAR1", "a Parquet table"),
        ("set.xlsx", _zipped("<row><c><v>What is a reef?</v></c></row>"), "an Excel .xlsx workbook"),
        ("set.csv", _zipped("<row><c><v>What is a reef?</v></c></row>"), "an Excel .xlsx workbook"),
        ("set.json", gzip.compress(b'[{"query": "What is a reef?"}]'), "gzip-compressed"),
        ("report.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "a PDF document"),
        ("ls", b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00>\x00\x01\x00\x00\x00\xd0\x6b", "an ELF executable"),
    ],
    ids=["jsonl.gz", "parquet", "xlsx", "xlsx-as-csv", "json.gz", "pdf", "elf"],
)
def test_a_compressed_file_or_binary_table_is_said_as_what_it_is(tmp_path, name, data, said):
    """A gzipped JSONL, a Hugging Face Parquet file or a workbook was 'not valid UTF-8 (byte 0x8b at column 2); save
    the file as UTF-8 and try again': neither what the file is nor what would open it."""
    path = tmp_path / name
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"{path}: the file is ") and said in line
    assert "UTF-8 and try again" not in line and "Traceback" not in done.stderr


def test_text_that_begins_like_a_magic_number_is_read(tmp_path):
    path = tmp_path / "par.csv"
    path.write_text("PAR1,question\nx,What is a reef?\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui.cli", "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
