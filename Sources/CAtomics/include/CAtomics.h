#ifndef CATOMICS_H
#define CATOMICS_H

// C11 atomic operations on a 64-bit word the caller allocates (aligned to 8 bytes): what
// Locking's AtomicWord needs on every platform of the package's floor, where Swift's own
// `Atomic` is not available (iOS 18, macOS 15). ThreadSanitizer sees them as atomics.

#include <stdatomic.h>
#include <stdint.h>

static inline uint64_t catomics_load(uint64_t *word) {
    return atomic_load_explicit((_Atomic uint64_t *)word, memory_order_acquire);
}

static inline void catomics_store(uint64_t *word, uint64_t value) {
    atomic_store_explicit((_Atomic uint64_t *)word, value, memory_order_release);
}

static inline uint64_t catomics_add(uint64_t *word, uint64_t amount) {
    return atomic_fetch_add_explicit((_Atomic uint64_t *)word, amount, memory_order_relaxed) + amount;
}

#endif
