"""tshark with a given nfsscope.so, run the way tshark accepts plugins: as
root (uid or gid 0) tshark ignores plugin folders, so then it runs as
`nobody` (runuser) with a HOME, the plugin and a copy of the capture in a
private directory that user can read; as anyone else it runs directly."""
import os
import pwd
import shutil
import subprocess
import sys
import tempfile


def take_preload(args):
    """Remove "--preload LIB" (libasan for a sanitized plugin) from args;
    return LIB or None."""
    if "--preload" not in args:
        return None
    i = args.index("--preload")
    lib = args[i + 1]
    del args[i:i + 2]
    return lib


class Tshark:
    def __init__(self, plugin_so, capture=None, preload=None):
        self.dir = tempfile.mkdtemp(prefix="nfsscope-plugin-")
        os.chmod(self.dir, 0o755)
        epan = os.path.join(self.dir, "plugins", "4.0", "epan")
        os.makedirs(epan)
        shutil.copy(plugin_so, epan)
        self.capture = None
        if capture:
            self.capture = os.path.join(self.dir, os.path.basename(capture))
            shutil.copy(capture, self.capture)
        self.home = os.path.join(self.dir, "home")
        os.makedirs(self.home)
        for root, dirs, files in os.walk(self.dir):
            for n in dirs + files:
                os.chmod(os.path.join(root, n), 0o755 if n in dirs else 0o644)
        self.prefix = []
        if os.getuid() == 0 or os.getgid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.home, nobody.pw_uid, nobody.pw_gid)
            self.prefix = ["runuser", "-u", "nobody", "--"]
        self.env = ["env", "HOME=" + self.home, "WIRESHARK_PLUGIN_DIR=" + os.path.join(self.dir, "plugins"),
                    "LC_ALL=C"]
        if preload:
            self.env += ["LD_PRELOAD=" + preload, "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                         "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"]

    def run(self, args):
        cmd = self.prefix + self.env + ["tshark"] + args
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0 or "ERROR: AddressSanitizer" in p.stderr or "runtime error:" in p.stderr:
            print("tshark failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-4000:]))
            sys.exit(2)
        return p.stdout

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)
