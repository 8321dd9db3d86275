"""CRC-32 (IEEE 802.3, the one zlib and binascii compute) for the store's lines.

MicroPython builds binascii.crc32 only where deflate is built too (the Pico's has it); a board
without it still boots and reads the same files: store/slot.py imports this slower bitwise version
instead, and only then, so a unit with binascii never has this module on its heap.
"""


def bitwise(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF

