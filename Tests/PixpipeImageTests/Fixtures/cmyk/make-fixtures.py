#!/usr/bin/env python3
"""Writes the CMYK TIFF fixtures of this folder and their references (see README.md).

Needs: vips (8.14, built with Little CMS 2) and liblcms2.
Run from anywhere: python3 make-fixtures.py
"""

import ctypes
import os
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 96, 64
GRID = 9

lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsCreateProfilePlaceholder.restype = ctypes.c_void_p
lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateLab4Profile.restype = ctypes.c_void_p
lcms.cmsCreateLab4Profile.argtypes = [ctypes.c_void_p]
lcms.cmsCreateTransform.restype = ctypes.c_void_p
lcms.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                    ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsSetDeviceClass.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetColorSpace.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetPCS.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
lcms.cmsStageAllocCLut16bit.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32,
                                        ctypes.c_void_p]
lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
lcms.cmsPipelineAlloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsPipelineInsertStage.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
lcms.cmsStageAllocToneCurves.restype = ctypes.c_void_p
lcms.cmsStageAllocToneCurves.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsMLUalloc.restype = ctypes.c_void_p
lcms.cmsMLUalloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
lcms.cmsD50_XYZ.restype = ctypes.c_void_p
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]


def sig(text):
    return struct.unpack(">I", text.encode("ascii"))[0]


def test_cmyk_profile():
    """A small CMYK input profile, unlike the decoder's generic press model: the CMYK node's colour is the
    naive ink model in sRGB, (1 - C)(1 - K) and so on, with the cyan ink's light scaled by 0.8, stored
    as CIELAB D50 in a 9-point CLUT."""
    srgb = lcms.cmsCreate_sRGBProfile()
    lab = lcms.cmsCreateLab4Profile(None)
    rgb_double = (1 << 22) | (4 << 16) | (3 << 3)
    lab_double = (1 << 22) | (10 << 16) | (3 << 3)
    to_lab = lcms.cmsCreateTransform(srgb, rgb_double, lab, lab_double, 1, 0)
    table = (ctypes.c_uint16 * (GRID ** 4 * 3))()
    index = 0
    steps = [i / (GRID - 1) for i in range(GRID)]
    for c in steps:
        for m in steps:
            for y in steps:
                for k in steps:
                    rgb = (ctypes.c_double * 3)(0.8 * (1 - c) * (1 - k) + 0.2 * (1 - k), (1 - m) * (1 - k),
                                                (1 - y) * (1 - k))
                    out = (ctypes.c_double * 3)()
                    lcms.cmsDoTransform(to_lab, rgb, out, 1)
                    l_star, a_star, b_star = out
                    # ICC v4 Lab encoding of a 16-bit table.
                    table[index] = max(0, min(65535, round(l_star * 65535 / 100)))
                    table[index + 1] = max(0, min(65535, round((a_star + 128) * 257)))
                    table[index + 2] = max(0, min(65535, round((b_star + 128) * 257)))
                    index += 3
    profile = lcms.cmsCreateProfilePlaceholder(None)
    lcms.cmsSetProfileVersion(profile, 4.3)
    lcms.cmsSetDeviceClass(profile, sig("prtr"))
    lcms.cmsSetColorSpace(profile, sig("CMYK"))
    lcms.cmsSetPCS(profile, sig("Lab "))
    stage = lcms.cmsStageAllocCLut16bit(None, GRID, 4, 3, table)
    pipeline = lcms.cmsPipelineAlloc(None, 4, 3)
    # A lutAToBType needs its A and B curves around the table: identity curves.
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 4, None))
    lcms.cmsPipelineInsertStage(pipeline, 1, stage)
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 3, None))
    lcms.cmsWriteTag(profile, sig("A2B0"), pipeline)
    lcms.cmsWriteTag(profile, sig("wtpt"), lcms.cmsD50_XYZ())
    for tag, text in (("desc", b"Pixpipe test CMYK (naive inks, weak cyan)"), ("cprt", b"No copyright, use freely")):
        mlu = lcms.cmsMLUalloc(None, 1)
        lcms.cmsMLUsetASCII(mlu, b"en", b"US", text)
        lcms.cmsWriteTag(profile, sig(tag), mlu)
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    return buffer.raw[: size.value]


def cmyk_tiff(samples, icc=None):
    """An uncompressed little-endian CMYK TIFF of one strip (Photometric 5, InkSet 1), with `icc` as its
    ICC profile tag when given."""
    entries = []  # (tag, type, count, value or bytes)
    data_blobs = []
    header = 8
    entries.append((256, 3, 1, WIDTH))
    entries.append((257, 3, 1, HEIGHT))
    entries.append((258, 3, 4, struct.pack("<4H", 8, 8, 8, 8)))
    entries.append((259, 3, 1, 1))
    entries.append((262, 3, 1, 5))
    entries.append((273, 4, 1, None))  # strip offset, patched below
    entries.append((277, 3, 1, 4))
    entries.append((278, 3, 1, HEIGHT))
    entries.append((279, 4, 1, len(samples)))
    entries.append((284, 3, 1, 1))
    entries.append((332, 3, 1, 1))
    if icc is not None:
        entries.append((34675, 7, len(icc), icc))
    ifd_size = 2 + 12 * len(entries) + 4
    offset = header + ifd_size
    out_entries = []
    for tag, kind, count, value in entries:
        if isinstance(value, bytes) and len(value) > 4:
            out_entries.append((tag, kind, count, offset))
            data_blobs.append(value + (b"\0" if len(value) % 2 else b""))
            offset += len(data_blobs[-1])
        else:
            out_entries.append((tag, kind, count, value))
    strip_offset = offset
    body = b"II*\0" + struct.pack("<I", header) + struct.pack("<H", len(out_entries))
    for tag, kind, count, value in out_entries:
        if value is None:
            value = strip_offset
        if kind == 3 and count == 1:
            body += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            body += struct.pack("<HHII", tag, kind, count, value)
    body += struct.pack("<I", 0)
    return body + b"".join(data_blobs) + samples


def synthetic_samples():
    """WIDTH x HEIGHT CMYK samples, 8 bits each, interleaved."""
    out = bytearray()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            cyan = x * 255 // (WIDTH - 1)
            magenta = y * 255 // (HEIGHT - 1)
            yellow = (x + y) * 255 // (WIDTH + HEIGHT - 2)
            black = ((x // 12 + y // 8) % 4) * 60
            out += bytes((cyan, magenta, yellow, black))
    return bytes(out)


def run(*args):
    subprocess.run(args, check=True)


def main():
    with tempfile.TemporaryDirectory() as scratch:
        # The samples: made here, so the fixtures hold nothing from elsewhere. Cyan across, magenta down,
        # yellow along the diagonal and four levels of black in blocks, so every ink and mixes of them appear.
        samples = synthetic_samples()
        open(f"{scratch}/samples.raw", "wb").write(samples)
        run("vips", "rawload", f"{scratch}/samples.raw", f"{scratch}/raw.v", str(WIDTH), str(HEIGHT), "4")
        run("vips", "copy", f"{scratch}/raw.v", f"{scratch}/crop.v", "--interpretation", "cmyk")

        # With an embedded profile; the reference is vips converting through that embedded profile to Little
        # CMS's built-in sRGB, the decoder's destination (vips's own "srgb" profile moves samples by up to 6).
        icc = test_cmyk_profile()
        open(f"{HERE}/cmyk-test-profile.tif", "wb").write(cmyk_tiff(samples, icc))
        lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lcms.cmsSaveProfileToFile(lcms.cmsCreate_sRGBProfile(), f"{scratch}/srgb.icc".encode())
        run("vips", "icc_transform", f"{HERE}/cmyk-test-profile.tif", f"{scratch}/ref.v", f"{scratch}/srgb.icc",
            "--embedded", "--intent", "perceptual")
        run("vips", "pngsave", f"{scratch}/ref.v", f"{HERE}/cmyk-test-profile-vips-srgb.png", "--strip")

        # Without a profile: a CMYK JPEG of the samples (vips, quality 95, no subsampling) and a TIFF of the
        # samples that JPEG decodes to (libjpeg through vips), so both files hold the same CMYK data.
        run("vips", "jpegsave", f"{scratch}/crop.v", f"{HERE}/cmyk-no-profile.jpg", "--Q", "95",
            "--subsample-mode", "off", "--strip")
        run("vips", "rawsave", f"{HERE}/cmyk-no-profile.jpg", f"{scratch}/jpeg.raw")
        decoded = open(f"{scratch}/jpeg.raw", "rb").read()
        assert len(decoded) == WIDTH * HEIGHT * 4
        open(f"{HERE}/cmyk-no-profile.tif", "wb").write(cmyk_tiff(decoded))


if __name__ == "__main__":
    main()
