"""The store's CRC (B17): the fallback for boards without binascii.crc32 gives the same
numbers, so a unit reads files whichever way they were written."""

from store import slot


def test_bitwise_crc_matches_the_library():
    samples = [b"", b"a", b"123456789", b"r 12 transfer 2 1 500000" * 7, bytes(range(256))]
    assert slot.bitwise(b"123456789") == 0xCBF43926  # the CRC-32 check value
    for s in samples:
        assert slot.bitwise(s) == slot.crc32(s) & 0xFFFFFFFF
