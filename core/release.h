#pragma once

#include <QRunnable>
#include <QThreadPool>

#include <tuple>
#include <utility>

namespace retrylab {

namespace detail {

template <typename... T>
class Release : public QRunnable
{
public:
    explicit Release(T &&...values)
        : m_values(std::move(values)...)
    {
    }
    void run() override { m_values = std::tuple<T...>(); }

private:
    std::tuple<T...> m_values;
};

} // namespace detail

// Drops these values on a worker thread. Qt containers share their data with atomic counts, so
// whichever copy goes last frees it: a replaced 40,000-order run (565k events, millions of
// strings) takes about 100 ms to free, which a view replacing its copy on the GUI thread must
// not spend there. Pass copies that nobody else touches (std::exchange the member out).
template <typename... T>
void releaseInBackground(T &&...values)
{
    static_assert((!std::is_lvalue_reference_v<T> && ...), "pass rvalues: the values move to the worker");
    QThreadPool::globalInstance()->start(new detail::Release<T...>(std::move(values)...));
}

} // namespace retrylab
