/*
 * A log of the CUPTI calls another profiler makes (Kineto inside PyTorch, JAX's profiler, ...): preloaded
 * (LD_PRELOAD), it interposes CUPTI's process-wide calls, writes each one with its arguments and result,
 * counts the frequent ones, and wraps the activity buffer callbacks to count buffers, bytes and records
 * by kind. It needs no CUPTI header and links no libcupti.
 *
 *   gcc -O2 -shared -fPIC -o libcupti_calls.so benches/c/cupti_calls.c -ldl -lpthread
 *   LD_PRELOAD=$PWD/libcupti_calls.so CUPTI_CALLS_OUT=calls.log python train.py
 *
 * The real functions come from the copy of libcupti the process loaded (found by its soname among the
 * loaded objects, with RTLD_NOLOAD: PyTorch's copy is a dependency of libtorch_cuda, outside the global
 * scope that RTLD_NEXT searches), else from RTLD_NEXT.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int result_t;
typedef void (*request_fn)(uint8_t **, size_t *, size_t *);
typedef void (*complete_fn)(void *, uint32_t, uint8_t *, size_t, size_t);

static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec t0;

static void say(const char *fmt, ...) {
    if (!out) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) * 1e-9;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    fprintf(out, "%10.6f tid=%ld ", t, (long)syscall(SYS_gettid));
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    fflush(out);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

static char cupti_path[4096];
static int find_cupti(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    if (info->dlpi_name && strstr(info->dlpi_name, "libcupti.so")) {
        snprintf(cupti_path, sizeof cupti_path, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

static void *real(const char *name) {
    static void *handle;
    if (!handle) {
        cupti_path[0] = 0;
        dl_iterate_phdr(find_cupti, NULL);
        if (cupti_path[0]) handle = dlopen(cupti_path, RTLD_LAZY | RTLD_NOLOAD);
        if (handle) say("libcupti: %s", cupti_path);
    }
    void *f = handle ? dlsym(handle, name) : NULL;
    if (!f) f = dlsym(RTLD_NEXT, name);
    if (!f) say("MISSING %s", name);
    return f;
}

/* The real `name`, of the interposed function's own type. */
#define REAL(name) \
    static __typeof__(&name) real_##name; \
    if (!real_##name) real_##name = (__typeof__(&name))real(#name)

__attribute__((constructor)) static void start(void) {
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const char *path = getenv("CUPTI_CALLS_OUT");
    out = path ? fopen(path, "a") : stderr;
    say("pid %d started", (int)getpid());
}

/* Frequent calls are counted, not logged. */
static _Atomic uint64_t n_push, n_pop, n_timestamp, n_next, n_dropped_query;
/* Buffers. */
static _Atomic uint64_t n_requested, n_completed, bytes_requested, bytes_valid, n_records;
static _Atomic uint64_t kinds[128];
static request_fn client_request;
static complete_fn client_complete;

__attribute__((destructor)) static void finish(void) {
    say("counts: push_external=%lu pop_external=%lu get_timestamp=%lu get_next_record=%lu dropped_queries=%lu",
        n_push, n_pop, n_timestamp, n_next, n_dropped_query);
    say("buffers: requested=%lu completed=%lu bytes_requested=%lu bytes_valid=%lu records=%lu", n_requested,
        n_completed, bytes_requested, bytes_valid, n_records);
    for (int k = 0; k < 128; k++)
        if (kinds[k]) say("records of kind %d: %lu", k, kinds[k]);
}

static void wrap_request(uint8_t **buffer, size_t *size, size_t *max_records) {
    client_request(buffer, size, max_records);
    uint64_t n = atomic_fetch_add(&n_requested, 1);
    atomic_fetch_add(&bytes_requested, *size);
    if (n < 4) say("buffer requested: %zu bytes, max_records %zu", *size, *max_records);
}

static void wrap_complete(void *ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    typedef result_t (*next_t)(uint8_t *, size_t, void **);
    static next_t next;
    if (!next) next = (next_t)real("cuptiActivityGetNextRecord");
    uint64_t n = atomic_fetch_add(&n_completed, 1);
    atomic_fetch_add(&bytes_valid, valid);
    void *record = NULL;
    uint64_t records = 0;
    while (next && buffer && next(buffer, valid, &record) == 0) {
        uint32_t kind = *(uint32_t *)record;
        atomic_fetch_add(&kinds[kind < 128 ? kind : 127], 1);
        records++;
    }
    atomic_fetch_add(&n_records, records);
    if (n < 4) say("buffer completed: ctx=%p stream=%u size=%zu valid=%zu records=%lu", ctx, stream, size, valid, records);
    client_complete(ctx, stream, buffer, size, valid);
}

result_t cuptiActivityRegisterCallbacks(request_fn request, complete_fn complete) {
    REAL(cuptiActivityRegisterCallbacks);
    client_request = request;
    client_complete = complete;
    result_t r = real_cuptiActivityRegisterCallbacks(wrap_request, wrap_complete);
    say("cuptiActivityRegisterCallbacks(%p, %p) = %d", (void *)request, (void *)complete, r);
    return r;
}

result_t cuptiSubscribe(void **subscriber, void *callback, void *userdata) {
    REAL(cuptiSubscribe);
    result_t r = real_cuptiSubscribe(subscriber, callback, userdata);
    say("cuptiSubscribe(callback %p) = %d handle %p", callback, r, subscriber ? *subscriber : NULL);
    return r;
}

result_t cuptiSubscribe_v2(void **subscriber, void *callback, void *userdata, void *params) {
    REAL(cuptiSubscribe_v2);
    result_t r = real_cuptiSubscribe_v2(subscriber, callback, userdata, params);
    say("cuptiSubscribe_v2(callback %p, params %p) = %d", callback, params, r);
    return r;
}

result_t cuptiUnsubscribe(void *subscriber) {
    REAL(cuptiUnsubscribe);
    result_t r = real_cuptiUnsubscribe(subscriber);
    say("cuptiUnsubscribe(%p) = %d", subscriber, r);
    return r;
}

result_t cuptiEnableCallback(uint32_t enable, void *subscriber, int domain, uint32_t cbid) {
    REAL(cuptiEnableCallback);
    result_t r = real_cuptiEnableCallback(enable, subscriber, domain, cbid);
    say("cuptiEnableCallback(%u, %p, domain %d, cbid %u) = %d", enable, subscriber, domain, cbid, r);
    return r;
}

result_t cuptiEnableDomain(uint32_t enable, void *subscriber, int domain) {
    REAL(cuptiEnableDomain);
    result_t r = real_cuptiEnableDomain(enable, subscriber, domain);
    say("cuptiEnableDomain(%u, %p, domain %d) = %d", enable, subscriber, domain, r);
    return r;
}

result_t cuptiEnableAllDomains(uint32_t enable, void *subscriber) {
    REAL(cuptiEnableAllDomains);
    result_t r = real_cuptiEnableAllDomains(enable, subscriber);
    say("cuptiEnableAllDomains(%u, %p) = %d", enable, subscriber, r);
    return r;
}

#define KIND_CALL(name)                                      \
    result_t name(int kind) {                                \
        REAL(name);                        \
        result_t r = real_##name(kind);                      \
        say(#name "(kind %d) = %d", kind, r);                \
        return r;                                            \
    }
KIND_CALL(cuptiActivityEnable)
KIND_CALL(cuptiActivityDisable)
KIND_CALL(cuptiActivityEnableAndDump)

result_t cuptiActivityEnableContext(void *ctx, int kind) {
    REAL(cuptiActivityEnableContext);
    result_t r = real_cuptiActivityEnableContext(ctx, kind);
    say("cuptiActivityEnableContext(%p, kind %d) = %d", ctx, kind, r);
    return r;
}

result_t cuptiActivityDisableContext(void *ctx, int kind) {
    REAL(cuptiActivityDisableContext);
    result_t r = real_cuptiActivityDisableContext(ctx, kind);
    say("cuptiActivityDisableContext(%p, kind %d) = %d", ctx, kind, r);
    return r;
}

#define API_CALL(name)                                            \
    result_t name(uint32_t cbid, uint8_t enable) {                \
        REAL(name);               \
        result_t r = real_##name(cbid, enable);                   \
        say(#name "(cbid %u, %u) = %d", cbid, enable, r);         \
        return r;                                                 \
    }
API_CALL(cuptiActivityEnableRuntimeApi)
API_CALL(cuptiActivityEnableDriverApi)

#define FLAG_CALL(name, type)                     \
    result_t name(type value) {                   \
        REAL(name);            \
        result_t r = real_##name(value);          \
        say(#name "(%u) = %d", (unsigned)value, r); \
        return r;                                 \
    }
FLAG_CALL(cuptiActivityFlushAll, uint32_t)
FLAG_CALL(cuptiActivityFlushPeriod, uint32_t)
FLAG_CALL(cuptiActivityEnableLatencyTimestamps, uint8_t)
FLAG_CALL(cuptiActivityEnableLaunchAttributes, uint8_t)
FLAG_CALL(cuptiActivityEnableAllSyncRecords, uint8_t)
FLAG_CALL(cuptiActivityEnableDeviceGraph, uint8_t)
FLAG_CALL(cuptiActivityEnableDriverApiKernelLaunchAttribute, uint8_t)
FLAG_CALL(cuptiSetThreadIdType, int)
FLAG_CALL(cuptiActivityUsePerThreadBuffer, uint8_t)
FLAG_CALL(cuptiActivityEnableHWTrace, uint8_t)

result_t cuptiFinalize(void) {
    REAL(cuptiFinalize);
    result_t r = real_cuptiFinalize();
    say("cuptiFinalize() = %d", r);
    return r;
}

result_t cuptiActivitySetAttribute(int attr, size_t *size, void *value) {
    REAL(cuptiActivitySetAttribute);
    uint64_t v = 0;
    if (size && value) memcpy(&v, value, *size < 8 ? *size : 8);
    result_t r = real_cuptiActivitySetAttribute(attr, size, value);
    say("cuptiActivitySetAttribute(attr %d, size %zu, value %lu) = %d", attr, size ? *size : 0, v, r);
    return r;
}

result_t cuptiActivityGetAttribute(int attr, size_t *size, void *value) {
    REAL(cuptiActivityGetAttribute);
    result_t r = real_cuptiActivityGetAttribute(attr, size, value);
    uint64_t v = 0;
    if (r == 0 && size && value) memcpy(&v, value, *size < 8 ? *size : 8);
    say("cuptiActivityGetAttribute(attr %d) = %d value %lu", attr, r, v);
    return r;
}

result_t cuptiActivityRegisterTimestampCallback(void *fn) {
    REAL(cuptiActivityRegisterTimestampCallback);
    result_t r = real_cuptiActivityRegisterTimestampCallback(fn);
    say("cuptiActivityRegisterTimestampCallback(%p) = %d", fn, r);
    return r;
}

result_t cuptiActivityGetNumDroppedRecords(void *ctx, uint32_t stream, size_t *dropped) {
    REAL(cuptiActivityGetNumDroppedRecords);
    atomic_fetch_add(&n_dropped_query, 1);
    result_t r = real_cuptiActivityGetNumDroppedRecords(ctx, stream, dropped);
    if (r == 0 && dropped && *dropped) say("cuptiActivityGetNumDroppedRecords(%p, %u) = %zu dropped", ctx, stream, *dropped);
    return r;
}

result_t cuptiActivityPushExternalCorrelationId(int kind, uint64_t id) {
    REAL(cuptiActivityPushExternalCorrelationId);
    atomic_fetch_add(&n_push, 1);
    return real_cuptiActivityPushExternalCorrelationId(kind, id);
}

result_t cuptiActivityPopExternalCorrelationId(int kind, uint64_t *id) {
    REAL(cuptiActivityPopExternalCorrelationId);
    atomic_fetch_add(&n_pop, 1);
    return real_cuptiActivityPopExternalCorrelationId(kind, id);
}

result_t cuptiGetTimestamp(uint64_t *t) {
    REAL(cuptiGetTimestamp);
    atomic_fetch_add(&n_timestamp, 1);
    return real_cuptiGetTimestamp(t);
}

result_t cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, void **record) {
    REAL(cuptiActivityGetNextRecord);
    atomic_fetch_add(&n_next, 1);
    return real_cuptiActivityGetNextRecord(buffer, valid, record);
}
