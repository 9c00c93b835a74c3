/* The floor of manifest loading: read the file and run libyaml's event loop over it, nothing
 * else (no tree, no strings). Prints the median milliseconds of ITERATIONS loads. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <yaml.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One load: read the whole file, parse every event; returns the event count, -1 on error. */
/* Not inlined: benchmarks/run.sh counts its instructions (callgrind --toggle-collect=load). */
__attribute__((noinline)) static long load(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? size : 1);
    size_t got = fread(bytes, 1, size, file);
    fclose(file);
    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, bytes, got);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) { events = -1; break; }
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        events++;
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(bytes);
    return events;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: yaml_floor FILE ITERATIONS\n"); return 64; }
    int iterations = atoi(argv[2]);
    double *times = calloc(iterations, sizeof *times);
    long events = 0;
    for (int i = 0; i < iterations; i++) {
        double start = now_ms();
        events = load(argv[1]);
        times[i] = now_ms() - start;
        if (events < 0) { fprintf(stderr, "yaml_floor: parse error\n"); return 65; }
    }
    qsort(times, iterations, sizeof *times, compare);
    printf("median_ms %.4f\nevents %ld\n", times[iterations / 2], events);
    return 0;
}
