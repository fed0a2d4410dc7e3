"""Colours and images as a dichromat sees them, each deficiency by the model made for it.

daltonlens implements three models, and its authors' review of them
(daltonlens.org/opensource-cvd-simulation) says which fits which deficiency: Viénot 1999 for
protanopia and deuteranopia (as accurate as Brettel there, one projection plane), Brettel 1997
for tritanopia (two half-planes, anchored on 485 and 660 nm; Viénot's single plane is a poor fit
for tritans and Machado 2009 was never fitted to tritan data). `pnp check` and `pnp serve` use
the same choice, so what the page shows is what the check judged.
"""

from __future__ import annotations

from pnp_model.colour import RGB

DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
MODEL = {"protanopia": "Vienot1999", "deuteranopia": "Vienot1999", "tritanopia": "Brettel1997"}


def _simulated(pixels, deficiency: str):
    """An (h, w, 3) uint8 sRGB array as a full dichromat of `deficiency` sees it."""
    from daltonlens import simulate as dl

    kind = {"protanopia": dl.Deficiency.PROTAN, "deuteranopia": dl.Deficiency.DEUTAN,
            "tritanopia": dl.Deficiency.TRITAN}[deficiency]
    model = getattr(dl, f"Simulator_{MODEL[deficiency]}")()
    return model.simulate_cvd(pixels, kind, severity=1.0)


def simulate(colours: list[RGB], deficiency: str) -> list[RGB]:
    """Each 0..1 sRGB colour as the deficiency sees it (quantised to 8 bits, as printed
    previews are)."""
    import numpy as np

    pixels = np.array([[[round(c * 255) for c in rgb] for rgb in colours]], dtype=np.uint8)
    return [tuple(float(c) / 255 for c in px) for px in _simulated(pixels, deficiency)[0]]


def simulate_image(image, deficiency: str):
    """A Pillow image as the deficiency sees it; an alpha channel is kept as it was."""
    import numpy as np
    from PIL import Image

    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    rgb = np.asarray(image.convert("RGB"))
    seen = Image.fromarray(_simulated(rgb, deficiency))
    if alpha is not None:
        seen.putalpha(alpha)
    return seen
