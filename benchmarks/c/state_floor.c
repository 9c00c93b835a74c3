/* The physical floor of the pre-start path: open the state file, read it, close it, exit. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char buffer[65536];
    if (argc != 2) return 64;
    int descriptor = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 74;
    while (read(descriptor, buffer, sizeof buffer) > 0) {}
    close(descriptor);
    return 0;
}
