"""An export's folder is swapped in only when nothing interrupted it (pnp_shared.files)."""

import pytest

from pnp_shared.files import staged_folder


class InterruptedInADestructor:
    """Ctrl-C that lands while Python runs a destructor: Python prints it as "Exception
    ignored" and goes on, so the export it interrupted used to finish and exit 0 (seen once
    in 30 interrupted shop exports on a loaded machine, the KeyboardInterrupt raised in a
    property enum's destructor-time lookup)."""

    def __del__(self):
        raise KeyboardInterrupt


def test_a_ctrl_c_swallowed_by_a_destructor_still_aborts_the_export(tmp_path, capsys):
    folder = tmp_path / "export"
    with pytest.raises(KeyboardInterrupt), staged_folder(folder) as into:
        (into / "card-1.png").write_bytes(b"png")
        victim = InterruptedInADestructor()
        del victim  # the KeyboardInterrupt is raised, printed by Python and dropped here
        (into / "card-2.png").write_bytes(b"png")
    assert not folder.exists()
    assert list(tmp_path.iterdir()) == []  # the staging folder is gone too
    assert "KeyboardInterrupt" not in capsys.readouterr().err  # no traceback for the user


def test_an_export_that_ends_well_is_moved_in(tmp_path):
    folder = tmp_path / "export"
    with staged_folder(folder) as into:
        (into / "card-1.png").write_bytes(b"png")
    assert [p.name for p in folder.iterdir()] == ["card-1.png"]
