"""A structural check of PDF/X-1a:2003 rules, read from the file with pikepdf (qpdf's parser).

Not an ISO validator (none installs here: veraPDF checks PDF/A, not PDF/X): each rule below is
one test of the file's objects that a file breaking that rule fails. check(data) returns the
names of the rules broken, with a reason each.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pikepdf

VERSION = "PDF/X-1a:2003"
BAD_SPACES = {"/DeviceRGB", "/CalRGB", "/CalGray", "/ICCBased", "/Lab"}


def check(data: bytes) -> dict[str, str]:
    """{rule: why} for every rule the file breaks; {} for a file that keeps them all."""
    problems: dict[str, str] = {}
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        return {"encryption": "the file is encrypted"}
    if pdf.is_encrypted:
        problems["encryption"] = "the file is encrypted"
    if Decimal(pdf.pdf_version) > Decimal("1.4"):
        problems["version"] = f"PDF {pdf.pdf_version} (PDF/X-1a:2003 is PDF 1.4 at most)"
    _info(pdf, problems)
    if "/ID" not in pdf.trailer or len(pdf.trailer.ID) != 2:
        problems["document id"] = "no /ID in the trailer"
    _output_intent(pdf, problems)
    for n, page in enumerate(pdf.pages, 1):
        _boxes(page, n, problems)
        _resources(page.obj, f"page {n}", problems, set())
        if page.obj.get("/Group", {}).get("/S") == "/Transparency":
            problems["transparency"] = f"page {n} has a transparency group"
    return problems


def _info(pdf, problems: dict[str, str]) -> None:
    info = pdf.trailer.get("/Info", {})
    if str(info.get("/GTS_PDFXVersion", "")) != VERSION:
        problems["pdfx version"] = f"Info GTS_PDFXVersion is {info.get('/GTS_PDFXVersion')!r}"
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not str(info.get(key, "")):
            problems["info"] = f"Info has no {key[1:]}"
    if info.get("/Trapped") not in (pikepdf.Name("/True"), pikepdf.Name("/False")):
        problems["trapped"] = f"Info Trapped is {info.get('/Trapped')!r}, not /True or /False"


def _output_intent(pdf, problems: dict[str, str]) -> None:
    intents = [oi for oi in pdf.Root.get("/OutputIntents", []) if oi.get("/S") == "/GTS_PDFX"]
    if len(intents) != 1:
        problems["output intent"] = f"{len(intents)} GTS_PDFX output intents (one is required)"
        return
    oi = intents[0]
    ident = str(oi.get("/OutputConditionIdentifier", ""))
    if not ident:
        problems["output intent"] = "the output intent has no OutputConditionIdentifier"
    elif "/DestOutputProfile" not in oi:
        # Allowed only for a characterization registered in the ICC registry.
        if str(oi.get("/RegistryName", "")) != "http://www.color.org" or ident == "Custom":
            problems["output intent"] = (f"no DestOutputProfile, and {ident!r} is not named "
                                         "in the ICC registry")
    elif int(oi.DestOutputProfile.get("/N", 0)) != 4:
        problems["output intent"] = "the output profile is not a CMYK one"


def _boxes(page, n: int, problems: dict[str, str]) -> None:
    media = [float(v) for v in page.MediaBox]
    trim = page.obj.get("/TrimBox") or page.obj.get("/ArtBox")
    if trim is None:
        problems["trim box"] = f"page {n} has neither TrimBox nor ArtBox"
        return
    bleed = [float(v) for v in page.obj.get("/BleedBox", page.MediaBox)]
    if not _inside(bleed, media):
        problems["bleed box"] = f"page {n}: BleedBox {bleed} is not inside MediaBox {media}"
    if not _inside([float(v) for v in trim], bleed):
        problems["trim box"] = f"page {n}: TrimBox {list(trim)} is not inside BleedBox {bleed}"


def _inside(inner: list[float], outer: list[float]) -> bool:
    eps = 1e-6
    return (inner[0] >= outer[0] - eps and inner[1] >= outer[1] - eps
            and inner[2] <= outer[2] + eps and inner[3] <= outer[3] + eps)


def _resources(owner, where: str, problems: dict[str, str], seen: set) -> None:
    """Fonts, graphics states, images, forms and colour operators of a page or a form."""
    res = owner.get("/Resources", {})
    for name, font in res.get("/Font", {}).items():
        _font(font, f"{where} font {name}", problems)
    for name, gs in res.get("/ExtGState", {}).items():
        for key in ("/ca", "/CA"):
            if key in gs and float(gs[key]) < 1:
                problems["transparency"] = f"{where} graphics state {name} sets {key} {gs[key]}"
        if gs.get("/SMask", pikepdf.Name("/None")) != pikepdf.Name("/None"):
            problems["transparency"] = f"{where} graphics state {name} has a soft mask"
        if str(gs.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
            problems["transparency"] = f"{where} graphics state {name} blends {gs['/BM']}"
    for name, space in res.get("/ColorSpace", {}).items():
        _space(space, f"{where} colour space {name}", problems)
    for name, xobj in res.get("/XObject", {}).items():
        if xobj.objgen in seen:
            continue
        seen.add(xobj.objgen)
        if xobj.get("/Subtype") == "/Image":
            if "/SMask" in xobj:
                problems["transparency"] = f"{where} image {name} has a soft mask"
            _space(xobj.get("/ColorSpace"), f"{where} image {name}", problems)
        else:
            if xobj.get("/Group", {}).get("/S") == "/Transparency":
                problems["transparency"] = f"{where} form {name} is a transparency group"
            _resources(xobj, f"{where} form {name}", problems, seen)
            _operators(xobj, f"{where} form {name}", problems)
    if isinstance(owner, pikepdf.Dictionary) and owner.get("/Type") == "/Page":
        _operators(pikepdf.Page(owner), where, problems)


def _space(space, where: str, problems: dict[str, str]) -> None:
    if space is None:
        return
    names = [space] if isinstance(space, pikepdf.Name) else list(space)[:2]
    for n in names:
        if isinstance(n, pikepdf.Name) and str(n) in BAD_SPACES:
            problems["colour"] = f"{where} is {n} (only DeviceCMYK, DeviceGray, spot colours)"
        elif isinstance(n, pikepdf.Array):
            _space(n, where, problems)


def _operators(owner, where: str, problems: dict[str, str]) -> None:
    for operands, op in pikepdf.parse_content_stream(owner):
        name = str(op)
        if name in ("rg", "RG"):
            problems["colour"] = f"{where} sets an RGB colour ({name})"
        elif name in ("cs", "CS") and str(operands[0]) in BAD_SPACES:
            problems["colour"] = f"{where} selects {operands[0]}"
        elif name == "BI":
            problems["colour"] = f"{where} has an inline image (not checked: avoided)"


def _font(font, where: str, problems: dict[str, str]) -> None:
    if font.get("/Subtype") == "/Type3":
        return  # glyphs drawn in the file itself
    if font.get("/Subtype") == "/Type0":
        font = font.DescendantFonts[0]
    desc = font.get("/FontDescriptor")
    if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
        problems["fonts"] = f"{where} ({font.get('/BaseFont')}) is not embedded"
