//===- SearchDriver.cpp - What every search algorithm shares -------------===//

#include "SearchDriver.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace toast::search::detail {

static uint64_t splitmix(uint64_t &x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed, uint64_t stream) {
  // Distinct streams for (seed, thread) pairs: mix the stream number in
  // before expanding, so seed+1/thread 0 and seed/thread 1 differ too.
  uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull + 0x8cb92ba72f3d8dd7ull);
  for (uint64_t &word : s)
    word = splitmix(x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t Rng::next() {
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double CostCache::get(const SearchState &state) {
  return getBelow(state, std::numeric_limits<double>::infinity());
}

double CostCache::getBelow(const SearchState &state, double bound) {
  StateKey key = state.key();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = costs.find(key);
    // A bound answers only a question with a bound it reaches.
    if (it != costs.end() &&
        (it->second.exact ||
         it->second.cost >= SearchEnvironment::atLeast(bound)))
      return it->second.cost;
  }
  // Computed outside the lock: two threads may both price a new state,
  // which wastes a little time but gives the same value.
  bool exact = !(bound < std::numeric_limits<double>::infinity());
  double cost = exact ? env.cost(state) : env.costBelow(state, bound);
  // Whether the environment priced it in full is not reported: a cost
  // below atLeast(bound) is exact, one at it or above may be a bound.
  exact |= cost < SearchEnvironment::atLeast(bound);
  std::lock_guard<std::mutex> lock(mutex);
  // A state priced again (in full, or to a higher bound) counts once; a
  // bound replaces only a lower one (threads may race on one state).
  auto [it, added] = costs.try_emplace(key, Entry{cost, exact});
  if (added)
    ++evaluations;
  else if (exact || (!it->second.exact && cost > it->second.cost))
    it->second = {cost, exact};
  return cost;
}

bool CostCache::contains(const StateKey &key) const {
  std::lock_guard<std::mutex> lock(mutex);
  return costs.count(key) != 0;
}

Clock::Clock(double budgetSeconds)
    : start(std::chrono::steady_clock::now()), budget(budgetSeconds) {}

double Clock::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

bool Trajectory::betterThan(const Trajectory &other) const {
  // Unpriceable states cost infinity: any finite cost beats them (the
  // relative tolerance below would be infinite, and the comparison NaN).
  if (std::isinf(cost) || std::isinf(other.cost))
    return cost < other.cost ||
           (cost == other.cost && actions.size() < other.actions.size());
  double tolerance = 1e-12 * std::max(std::abs(cost), std::abs(other.cost));
  if (cost < other.cost - tolerance)
    return true;
  return cost <= other.cost + tolerance &&
         actions.size() < other.actions.size();
}

std::vector<unsigned> legalActions(const SearchEnvironment &env,
                                   const SearchState &state) {
  std::vector<unsigned> legal;
  for (unsigned a = 0, e = env.getNumActions(); a != e; ++a)
    if (env.isLegal(state, a))
      legal.push_back(a);
  return legal;
}

bool applyRandomAction(const SearchEnvironment &env, SearchState &state,
                       std::vector<unsigned> &actions, Rng &rng) {
  std::vector<unsigned> legal = legalActions(env, state);
  if (legal.empty())
    return false;
  unsigned action = legal[rng.below(legal.size())];
  env.apply(state, action);
  actions.push_back(action);
  return true;
}

void appendRandomActions(const SearchEnvironment &env, SearchState &state,
                         std::vector<unsigned> &actions, size_t count,
                         Rng &rng) {
  for (size_t i = 0; i != count && applyRandomAction(env, state, actions, rng);
       ++i) {
  }
}

uint64_t quota(uint64_t total, unsigned threads, unsigned thread) {
  return total / threads + (thread < total % threads ? 1 : 0);
}

namespace {
/// Worker threads that outlive one forEachThread call. The pricer keeps a
/// workspace per thread (thread_local in NdaEnvironment::Impl::evaluate)
/// whose first state walks and allocates every value of the program; with
/// new threads per call, a climb's chunk of 16 states started two fresh
/// workspaces, and full-size t7b's restarts ran at 1.4x on two threads
/// where its rounds ran at 1.8x (docs/performance.md, "Threads that
/// stay"). Each calling thread owns its pool (thread_local), so searches
/// in several threads never wait on each other's workers. Thread 0 is the
/// caller: its body must not call forEachThread again (no caller does).
class ThreadPool {
public:
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    for (std::thread &worker : workers)
      worker.join();
  }

  /// body(0) on the calling thread, body(1..threads-1) on the workers.
  void run(unsigned threads, const std::function<void(unsigned)> &body) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (workers.size() + 1 < threads) {
        unsigned t = workers.size() + 1;
        workers.emplace_back([this, t] { work(t); });
      }
      job = &body;
      jobThreads = threads;
      pending = threads - 1;
      ++generation;
    }
    wake.notify_all();
    body(0);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return pending == 0; });
    job = nullptr;
  }

private:
  /// Worker t runs each job that asks for more than t threads, once: a new
  /// job starts only after every worker of the last one finished it.
  void work(unsigned t) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stopping || generation != seen; });
      if (stopping)
        return;
      seen = generation;
      if (t >= jobThreads)
        continue;
      const std::function<void(unsigned)> *body = job;
      lock.unlock();
      (*body)(t);
      lock.lock();
      if (--pending == 0)
        done.notify_one();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  const std::function<void(unsigned)> *job = nullptr;
  unsigned jobThreads = 0, pending = 0;
  uint64_t generation = 0;
  bool stopping = false;
};
} // namespace

void forEachThread(unsigned threads,
                   const std::function<void(unsigned)> &body) {
  if (threads <= 1) {
    body(0);
    return;
  }
  thread_local ThreadPool pool;
  pool.run(threads, body);
}

uint64_t roundBudget(const SearchOptions &options, uint64_t done) {
  uint64_t round = std::max(1u, options.roundRollouts);
  if (options.maxRollouts == 0)
    return round;
  return done >= options.maxRollouts
             ? 0
             : std::min<uint64_t>(round, options.maxRollouts - done);
}

const char *budgetSpent(uint64_t roundBudget, const Clock &clock) {
  if (!roundBudget)
    return "rollout budget";
  if (clock.expired())
    return "time budget";
  return nullptr;
}

const char *budgetReason(const SearchOptions &options, const Clock &clock,
                         uint64_t rollouts) {
  if (clock.expired())
    return "time budget";
  if (options.maxRollouts && rollouts >= options.maxRollouts)
    return "rollout budget";
  return nullptr;
}

StateEnumerator::StateEnumerator(const SearchEnvironment &env,
                                 unsigned maxDepth)
    : env(env), maxDepth(maxDepth) {
  SearchState initial = env.getInitialState();
  entries.push_back(Entry{~0u, 0, 0});
  recorded.insert(initial.key());
}

std::vector<unsigned> StateEnumerator::actions(size_t index) const {
  std::vector<unsigned> path(entries[index].depth);
  for (size_t i = index; entries[i].depth; i = entries[i].parent)
    path[entries[i].depth - 1] = entries[i].action;
  return path;
}

std::vector<StateEnumerator::Child> StateEnumerator::successors() const {
  std::vector<Child> children;
  if (maxDepth && entries[next].depth >= maxDepth)
    return children;
  SearchState state = env.getInitialState();
  for (unsigned action : actions(next))
    env.apply(state, action);
  std::unordered_set<StateKey, StateKeyHash> seen;
  for (unsigned action : legalActions(env, state)) {
    SearchState child = state;
    env.apply(child, action);
    StateKey key = child.key();
    if (!recorded.count(key) && seen.insert(key).second)
      children.push_back(Child{action, std::move(child), key});
  }
  return children;
}

void StateEnumerator::record(const Child &child) {
  if (recorded.insert(child.key).second)
    entries.push_back(Entry{static_cast<uint32_t>(next), child.action,
                            entries[next].depth + 1});
}

bool ProgressLog::improve(double cost, double seconds, uint64_t states,
                          Improvement::Phase phase, unsigned restart) {
  // Without a tolerance every gain counts, even a tie won by a shorter
  // trajectory (Trajectory::betterThan).
  bool counts = !(minGain > 0) || cost < counted * (1 - minGain);
  if (counts) {
    counted = cost;
    countedStates = states;
  }
  improvements.push_back({seconds, states, cost, phase, counts, restart});
  return counts;
}

bool CoverageTracker::complete() {
  if (cache.getNumEvaluations() == stalledAt || !cache.contains(initialKey))
    return false;
  while (!states.done()) {
    std::vector<StateEnumerator::Child> children = states.successors();
    for (const StateEnumerator::Child &child : children)
      if (!cache.contains(child.key)) {
        stalledAt = cache.getNumEvaluations();
        unpriced = states.actions(states.getNext());
        unpriced.push_back(child.action);
        return false;
      }
    for (const StateEnumerator::Child &child : children)
      states.record(child);
    states.advance();
  }
  return true;
}

void finishResult(SearchResult &result, const SearchEnvironment &env,
                  Trajectory best, uint64_t evaluations, const Clock &clock) {
  result.best = env.getInitialState();
  for (unsigned action : best.actions)
    env.apply(result.best, action);
  result.actions = std::move(best.actions);
  result.bestCost = best.cost;
  result.evaluations = evaluations;
  result.seconds = clock.elapsed();
  result.secondsToBest = best.seconds;
}

} // namespace toast::search::detail
