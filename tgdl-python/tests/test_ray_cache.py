"""`tgdl_ray.load` of a wheel imports only what this user unpacked from that wheel: not a
package another local user planted where the wheel would be unpacked (the shared,
predictable `/tmp/tgdl_ray/<wheel>-<sha>` of old), not files changed since, and not from
a cache directory others can write to. The wheels here are made by the test (a package
and its metadata: what `load` reads of a game wheel), so no game needs building."""

import hashlib
import os
import sys
import tempfile
import uuid
import zipfile

import pytest

import tgdl_ray


@pytest.fixture
def probe(monkeypatch, tmp_path):
    """A fresh package name, a private cache (XDG_CACHE_HOME) and a shared temporary
    directory standing for /tmp (sticky, writable by all)."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    name = f"tgdl_probe_{uuid.uuid4().hex[:12]}"
    path_before = list(sys.path)
    yield cache, shared, name
    sys.modules.pop(name, None)
    sys.path[:] = path_before


def make_wheel(directory, name, value):
    wheel = directory / f"{name}-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr(f"{name}/__init__.py", f"VALUE = {value!r}\n")
        z.writestr(f"{name}-0.1.0.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    return wheel


def plant(directory, name):
    package = directory / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 'planted'\n")
    return package


def test_a_planted_package_is_never_imported(probe, tmp_path):
    cache, shared, name = probe
    wheel = make_wheel(tmp_path, name, "genuine")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    # Where the old code unpacked it, predictably, in the shared directory...
    plant(shared / "tgdl_ray" / f"{wheel.stem}-{digest[:16]}", name)
    # ...and a changed copy where this code unpacks it.
    (cache / "tgdl_ray").mkdir(mode=0o700)
    plant(cache / "tgdl_ray" / f"{wheel.stem}-{digest}", name)
    module = tgdl_ray.load(str(wheel))
    assert module.VALUE == "genuine"
    assert str(cache) in module.__file__
    # Loading again (the unpacked files now checked as they are) gives the same module.
    assert tgdl_ray.load(str(wheel)) is module


def test_a_cache_others_can_write_to_is_refused(probe, tmp_path):
    cache, _, name = probe
    wheel = make_wheel(tmp_path, name, "genuine")
    root = cache / "tgdl_ray"
    root.mkdir(mode=0o700)
    os.chmod(root, 0o777)
    with pytest.raises(PermissionError, match="written by other users"):
        tgdl_ray.load(str(wheel))
    assert name not in sys.modules
    os.chmod(root, 0o700)
    if hasattr(os, "getuid") and os.getuid() == 0:
        # Root can give the directory away: owned by another user, it is refused too.
        os.chown(root, 65534, 65534)
        with pytest.raises(PermissionError, match="another user"):
            tgdl_ray.load(str(wheel))
        assert name not in sys.modules
        os.chown(root, 0, 0)
    assert tgdl_ray.load(str(wheel)).VALUE == "genuine"
