"""Service settings from flags and the environment; a bad value names its variable and what is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tableref.api.settings import BUNDLED_SAMPLES, Settings
from tableref.errors import UserError


def test_flags_win_over_the_environment_and_the_environment_over_defaults(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    for name, value in {"TABLEREF_HOST": "0.0.0.0", "TABLEREF_PORT": "9001", "TABLEREF_DATA_DIR": str(tmp_path / "env"),
                        "TABLEREF_TOKEN": "tok", "TABLEREF_MEDIA_DIR": f"{tmp_path}/a:{tmp_path}/b", "TABLEREF_DEMO": "0",
                        "TABLEREF_DEMO_LOOP": "no", "TABLEREF_DEMO_PIPELINE": "truth", "TABLEREF_SPEED": "2",
                        "TABLEREF_WRITES_PER_SECOND": "0", "DATABASE_URL": "postgresql://u@h/db"}.items():
        monkeypatch.setenv(name, value)
    s = Settings.from_env()
    assert (s.host, s.port, s.data_dir, s.token) == ("0.0.0.0", 9001, tmp_path / "env", "tok")
    assert s.media_dirs == (tmp_path / "a", tmp_path / "b", BUNDLED_SAMPLES)
    assert (s.demo, s.demo_loop, s.demo_pipeline, s.playback_speed) == (False, False, "truth", 2.0)
    assert (s.max_writes_per_second, s.database_url) == (0.0, "postgresql://u@h/db")
    flags = Settings.from_env(host="127.0.0.1", port=8123, data_dir=str(tmp_path / "flag"))
    assert (flags.host, flags.port, flags.data_dir) == ("127.0.0.1", 8123, tmp_path / "flag")


@pytest.mark.parametrize(("name", "value", "says"), [
    ("TABLEREF_PORT", "abc", "TABLEREF_PORT='abc' is not a whole number from 1 to 65535"),
    ("TABLEREF_PORT", "0", "accepted is a whole number from 1 to 65535"),
    ("TABLEREF_SPEED", "fast", "TABLEREF_SPEED='fast' is not a number"),
    ("TABLEREF_WRITES_PER_SECOND", "-1", "accepted is a number from 0"),
    ("TABLEREF_DEMO_PIPELINE", "magic", "accepted: vision, truth"),
])
def test_a_bad_setting_names_its_variable_and_what_is_accepted(monkeypatch: pytest.MonkeyPatch, name: str,
                                                               value: str, says: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(UserError, match=says.replace("(", r"\(").replace(")", r"\)")):
        Settings.from_env()
