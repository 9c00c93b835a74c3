#define _GNU_SOURCE
#include "milepost_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static void report(int fd, int stage, int error) {
    milepost_spawn_report message = {stage, error};
    ssize_t written;
    do {
        written = write(fd, &message, sizeof message);
    } while (written < 0 && errno == EINTR);
    _exit(127);
}

/// Closes every descriptor from `first` on, except `keep`.
static void close_from(int first, int keep) {
    if (keep >= first) {
        if (keep > first && syscall(SYS_close_range, (unsigned)first, (unsigned)keep - 1, 0) != 0) {
            for (int fd = first; fd < keep; fd++) close(fd);
        }
        first = keep + 1;
    }
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
    struct rlimit limit;
    rlim_t last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? limit.rlim_cur : 65536;
    if (last > 65536) last = 65536;
    for (int fd = first; fd < (int)last; fd++) close(fd);
}

static void child(const milepost_spawn_request *request, pid_t parent) {
    const int failed = request->report_fd;
    if (setpgid(0, 0) != 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
    if (request->death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, request->death_signal) != 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
        // The parent may have died before prctl: then the signal never comes.
        if (getppid() != parent) _exit(127);
    }
    // Handlers of the parent's are reset (exec would, but a signal before it would run one
    // here); ignored signals stay ignored, except those the child starts with defaults.
    struct sigaction action = {0};
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        if (sigaction(signal, NULL, &action) != 0) continue;
        int reset = signal == SIGINT || signal == SIGTERM || signal == SIGQUIT || signal == SIGPIPE || signal == SIGCHLD
            || action.sa_handler != SIG_IGN;
        if (reset && action.sa_handler != SIG_DFL) {
            struct sigaction standard = {0};
            standard.sa_handler = SIG_DFL;
            sigemptyset(&standard.sa_mask);
            sigaction(signal, &standard, NULL);
        }
    }
    unsigned char go = 0;
    ssize_t got;
    do {
        got = read(request->gate_fd, &go, 1);
    } while (got < 0 && errno == EINTR);
    if (got != 1) _exit(127);

    int input = open("/dev/null", O_RDONLY);
    if (input < 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
    if (input != 0 && (dup2(input, 0) < 0 || close(input) != 0)) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
    if (dup2(request->stdout_fd, 1) < 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
    if (dup2(request->stderr_fd, 2) < 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
    int first = 3;
    if (request->control_fd >= 0) {
        if (dup2(request->control_fd, 3) < 0) report(failed, MILEPOST_SPAWN_STAGE_SETUP, errno);
        first = 4;
    }
    // Descriptors Milepost inherited without close-on-exec (a supervisor's pipe, a socket)
    // would otherwise outlive Milepost in the step, and keep a pipe open after a kill -9.
    close_from(first, failed);
    if (chdir(request->directory) != 0) report(failed, MILEPOST_SPAWN_STAGE_DIRECTORY, errno);

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int denied = 0;
    for (int index = 0; index < request->path_count; index++) {
        execve(request->paths[index], request->argv, request->envp);
        if (errno == EACCES) denied = 1;
        else if (errno != ENOENT && errno != ENOTDIR) report(failed, MILEPOST_SPAWN_STAGE_EXEC, errno);
    }
    report(failed, MILEPOST_SPAWN_STAGE_EXEC, denied ? EACCES : ENOENT);
}

pid_t milepost_spawn(const milepost_spawn_request *request) {
    // No signal may run a handler of ours in the child before it has reset them.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) child(request, parent);
    int saved = errno;
    if (pid > 0) setpgid(pid, pid);  // The group exists when this returns, whoever runs first.
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return pid;
}
