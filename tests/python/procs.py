"""A server process of the tests, its output in a log file, stopped with SIGTERM (SIGKILL
after 20 s)."""
import subprocess
from pathlib import Path


class Proc:
    def __init__(self, args, log: Path, env=None, cwd=None):
        self.log = log
        self.out = open(log, "w")
        self.proc = subprocess.Popen(args, stdout=self.out, stderr=subprocess.STDOUT, env=env, cwd=cwd)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()
