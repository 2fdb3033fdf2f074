// Command graphs (issue 16), modelled on SYCL's command_graph (sycl_ext_oneapi_graph):
// record a stretch of work once, then submit it as one command as often as needed.
//
//   plexus::CommandGraph graph;
//   plexus::GraphParameter<float> dt(0.1f);               // graph_parameter.hpp
//   graph.begin_recording(q);                              // q's submissions are recorded,
//   q.submit([&](plexus::Handler& h) { ... });             // not run
//   q.submit([&](plexus::Handler& h) { h.parallel_for(k, range, dt, x.access(h, plexus::read_write)); });
//   graph.end_recording();
//   plexus::ExecutableGraph step = graph.finalize();
//   for (int i = 0; i < steps; ++i) { dt.update(next_dt(i)); q.submit(step); }
//   step.rebind(x, y);                                     // same graph, another buffer
//
// Recording: while a queue records into a graph, each command group submitted to it (a
// kernel, a native task, a host task, a buffer copy or fill, a USM memcpy, memset, fill or
// copy) becomes a node of the graph instead of running; submit
// returns an empty Event (valid() false). Several queues may record into one graph (of one
// runtime); a queue records into one graph at a time. Nodes are ordered as plain submission
// would order them: by their buffer accesses, and nodes recorded from an in-order queue also
// one after another. Recording while a queue fuses kernels, or fusing while it records, is
// plexus::error(invalid_argument).
//
// Submission (Queue::submit(exec)): one command. It depends on earlier work through the
// memory model, as any command group (and, on an in-order queue, on the queue's previous
// group); later work depends on it the same way. Its event completes when every node has,
// and fails with the first failure among them, as the nodes' own events would have. Nodes
// run on the devices they were recorded for (the submitting queue only orders the graph).
// A graph whose nodes are all kernels of one device runs as one task, replayed by the
// device's backend where it has the capability (device_graph.hpp: CUDA graphs, OpenCL
// command buffers, a prebuilt host list) and launched one by one on one device queue where it has not; other graphs
// submit their nodes as ordinary tasks. Either way the results are those of submitting the
// recorded command groups again, with the parameters' current values.
//
// Updates between submissions: GraphParameter::update (scalars), ExecutableGraph::rebind
// (buffers, recorded copies and fills included). A graph is invalidated when a buffer it uses is destroyed: submitting it (or
// finalizing a graph that uses it) is plexus::error(invalid_argument) naming the node.
//
// Thread-safety: every member is safe from any thread; an ExecutableGraph may be submitted
// from several threads at once. CommandGraph and ExecutableGraph are cheap shared handles;
// an ExecutableGraph does not change when its CommandGraph records more.
#pragma once

#include <cstddef>
#include <memory>

#include "plexus/buffer_handle.hpp"
#include "plexus/export.hpp"

namespace plexus {

class Queue;
class ExecutableGraph;

namespace detail {
class GraphState;
class ExecutableGraphState;
}  // namespace detail

class PLEXUS_API CommandGraph {
 public:
  CommandGraph();

  // Starts recording the command groups submitted to `queue`. invalid_argument when it
  // already records (into any graph), fuses kernels, or belongs to another runtime than the
  // graph's queues.
  void begin_recording(Queue& queue);
  // Stops recording on `queue` (nothing when it does not record into this graph), or on
  // every queue recording into this graph.
  void end_recording(Queue& queue);
  void end_recording();

  // Nodes recorded so far.
  std::size_t size() const;
  // An executable graph of the nodes recorded so far. invalid_argument when nothing was
  // recorded or a buffer the nodes use has been destroyed.
  ExecutableGraph finalize() const;

 private:
  std::shared_ptr<detail::GraphState> state_;
};

class PLEXUS_API ExecutableGraph {
 public:
  explicit ExecutableGraph(std::shared_ptr<detail::ExecutableGraphState> state);

  std::size_t size() const;  // nodes
  // True when the graph runs as one task on one device (all its nodes are kernels of one
  // device); whether that device's backend replays it natively shows in traces.
  bool single_task() const;

  // Makes every node that uses buffer `from` use `to` instead, from the next submission on.
  // invalid_argument when the two differ in element size or extent, or `from` is not used.
  template <class Buffer>
  void rebind(const Buffer& from, const Buffer& to) {
    rebind_handle(from.handle(), to.handle());
  }
  void rebind_handle(const BufferHandle& from, const BufferHandle& to);

  const std::shared_ptr<detail::ExecutableGraphState>& state() const { return state_; }

 private:
  std::shared_ptr<detail::ExecutableGraphState> state_;
};

}  // namespace plexus
