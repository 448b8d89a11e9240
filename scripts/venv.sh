# Sourced by the test scripts (pytest.sh, browser-test.sh, cluster-test.sh): one way to make
# the virtual environment each of them installs its pinned packages into.

# make_venv DIR: a virtual environment at DIR, unless a working one is there already.
# Returns non-zero if none can be made; the caller decides whether that fails or skips.
make_venv() {
    local venv=$1 python=${PYTHON:-python3}
    [ -x "$venv/bin/python" ] && return 0
    rm -rf "$venv"
    "$python" -m venv "$venv" && return 0
    # Some systems ship Python without ensurepip; virtualenv works there.
    rm -rf "$venv"
    "$python" -m pip install --quiet --user virtualenv && "$python" -m virtualenv --quiet "$venv"
}
