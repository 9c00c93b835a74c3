#!/usr/bin/env python3
"""Runs the `run:` steps of one job of a GitHub Actions workflow, in order, with bash, as a runner would.

    scripts/run-workflow.py WORKFLOW JOB [NAME=VALUE ...]

`uses:` steps are skipped (the checkout is the current directory). The job's and each step's `env:`
are set; RUNNER_TEMP is a temporary directory, and the directories a step appends to GITHUB_PATH
come first in PATH for the later steps. `${{ ... }}` expressions are replaced from the NAME=VALUE arguments (`vars.PRODUCTION_VERSION=2.0`); an expression with
`|| 'default'` falls back to its default. Any other expression is an error, so the workflow and this
runner cannot drift apart silently. GITHUB_STEP_SUMMARY is a temporary file whose content is
printed at the end. Needs PyYAML. Exits with the first failing step's status.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


def substitute(text, values):
    def replace(match):
        expression = match.group(1).strip()
        name, _, default = (part.strip() for part in expression.partition("||"))
        if name in values:
            return values[name]
        if default:
            return default.strip("'\"")
        sys.exit(f"run-workflow: no value for the expression ${{{{ {expression} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", replace, text)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    workflow, job_name = sys.argv[1], sys.argv[2]
    values = dict(argument.split("=", 1) for argument in sys.argv[3:])
    with open(workflow) as file:
        job = yaml.safe_load(file)["jobs"][job_name]
    summary = tempfile.NamedTemporaryFile(prefix="step-summary.", delete=False).name
    path_file = tempfile.NamedTemporaryFile(prefix="github-path.", delete=False).name
    runner_temp = tempfile.mkdtemp(prefix="runner-temp.")
    job_environment = {key: substitute(str(value), values) for key, value in (job.get("env") or {}).items()}
    for number, step in enumerate(job["steps"], 1):
        title = step.get("name") or step.get("uses") or f"step {number}"
        if "uses" in step:
            print(f"run-workflow: skipping '{title}' (uses: {step['uses']})", flush=True)
            continue
        with open(path_file) as file:
            added = [line.strip() for line in file if line.strip()]
        search_path = os.pathsep.join(list(reversed(added)) + [os.environ["PATH"]])
        environment = dict(os.environ, **job_environment, GITHUB_STEP_SUMMARY=summary, GITHUB_PATH=path_file,
                           RUNNER_TEMP=runner_temp, PATH=search_path, CI="true")
        for key, value in (step.get("env") or {}).items():
            environment[key] = substitute(str(value), values)
        print(f"run-workflow: running '{title}'", flush=True)
        status = subprocess.run(["bash", "-eo", "pipefail", "-c", substitute(step["run"], values)],
                                env=environment).returncode
        if status != 0:
            print(f"run-workflow: '{title}' failed with exit status {status}", file=sys.stderr)
            sys.exit(status)
    with open(summary) as file:
        print("run-workflow: job summary:\n" + file.read(), end="")
    os.unlink(summary)
    os.unlink(path_file)
    shutil.rmtree(runner_temp)


main()
