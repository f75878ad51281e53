"""Writes an Inspect-style `.eval` log (a zip archive) with Python's zipfile, the module Inspect writes them with.

    python3 write-eval-log.py OUT.eval < entries.json      # [[name, text], ...] in order: deflated entries
    python3 write-eval-log.py --zstd OUT.eval FROM.eval    # FROM's entries, in order, zstd-compressed

With --zstd, zipfile learns compression method 93 the way the zipfile-zstd package (which Inspect uses on
Python < 3.14) teaches it, by replacing zipfile's _check_compression and _get_compressor, with the `zstd`
command-line tool (Debian's zstd package) as the compressor. Standard library only otherwise.
"""

import json
import subprocess
import sys
import warnings
import zipfile

ZIP_ZSTANDARD = 93


class ZstdCompressor:
    """zipfile's compressor interface (compress, flush) over the zstd command-line tool."""

    def __init__(self):
        self.data = b""

    def compress(self, data):
        self.data += data
        return b""

    def flush(self):
        return subprocess.run(["zstd", "-q", "-c", "-19"], input=self.data, capture_output=True, check=True).stdout


def teach_zstd():
    check, get = zipfile._check_compression, zipfile._get_compressor
    zipfile._check_compression = lambda method: None if method == ZIP_ZSTANDARD else check(method)
    zipfile._get_compressor = lambda method, level=None: ZstdCompressor() if method == ZIP_ZSTANDARD else get(method, level)
    zipfile.compressor_names[ZIP_ZSTANDARD] = "zstd"


def main():
    warnings.simplefilter("ignore")  # zipfile warns about a duplicate name, which a test may want
    if sys.argv[1] == "--zstd":
        teach_zstd()
        out, source = sys.argv[2], sys.argv[3]
        with zipfile.ZipFile(source) as archive:
            entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
        method = ZIP_ZSTANDARD
    else:
        out = sys.argv[1]
        entries = [(name, text.encode("utf-8")) for name, text in json.load(sys.stdin)]
        method = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(out, "w", compression=method) as archive:
        for name, data in entries:
            archive.writestr(name, data)


main()
