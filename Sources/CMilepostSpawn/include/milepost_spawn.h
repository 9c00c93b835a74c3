#ifndef MILEPOST_SPAWN_H
#define MILEPOST_SPAWN_H

#include <sys/types.h>

/// What `milepost_spawn` starts, and with which descriptors.
typedef struct {
    /// The paths to try in order (`execvp`'s search done by the caller): one that is missing
    /// (ENOENT, ENOTDIR) or not executable (EACCES) is skipped.
    const char *const *paths;
    int path_count;
    char *const *argv;
    char *const *envp;
    /// The child's working directory.
    const char *directory;
    /// Become the child's descriptors 1 and 2.
    int stdout_fd;
    int stderr_fd;
    /// Becomes descriptor 3 when not -1.
    int control_fd;
    /// The read end of the gate: the child reads one byte from it before it executes the
    /// program, and exits with status 127 at its end instead (the parent gave up on it).
    int gate_fd;
    /// The write end (close-on-exec) of the report pipe: a child that cannot execute the program
    /// writes a `milepost_spawn_report` to it and exits with status 127.
    int report_fd;
    /// Sent to the child when the thread that spawned it ends (`PR_SET_PDEATHSIG`); 0 for none.
    int death_signal;
} milepost_spawn_request;

/// What a child that could not execute its program reports.
typedef struct {
    /// `MILEPOST_SPAWN_STAGE_*`: where it failed.
    int stage;
    int error;
} milepost_spawn_report;

enum {
    /// Setting up the child (process group, descriptors, signals) failed.
    MILEPOST_SPAWN_STAGE_SETUP = 1,
    /// `chdir` to the working directory failed.
    MILEPOST_SPAWN_STAGE_DIRECTORY = 2,
    /// No path could be executed.
    MILEPOST_SPAWN_STAGE_EXEC = 3,
};

/// Forks a child that leads a process group of its own (its pid is the group id), dies with
/// the calling thread (`death_signal`), and waits at `gate_fd` before it executes the program,
/// with stdin on /dev/null, stdout and stderr on the given descriptors, an empty signal mask,
/// default signal actions (ignored ones stay ignored, as `execve` keeps them, except SIGPIPE
/// and SIGCHLD) and no other descriptor. Between the fork and `execve` the child calls only
/// async-signal-safe functions.
/// Returns the child's pid, or -1 with `errno` set when it could not be forked.
pid_t milepost_spawn(const milepost_spawn_request *request);

#endif
