/* Whether this translation unit is built for AddressSanitizer, as GCC
 * (__SANITIZE_ADDRESS__) and Clang (__has_feature) each say it: BOUNCE_ASAN
 * is defined then, whatever flags turned the sanitizer on. */
#ifndef BOUNCE_BASE_ASAN_H
#define BOUNCE_BASE_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define BOUNCE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BOUNCE_ASAN 1
#endif
#endif

#endif
