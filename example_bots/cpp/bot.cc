// A Bid Euchre arena bot in C++, written from proto/bideuchre/v1/arena.proto and docs/protocol.md alone:
// this file speaks the protocol, strategy.cc chooses.
//
// The C++ code for the protocol is generated from the .proto file when the bot is built (`make`: protoc and
// grpc_cpp_plugin into build/gen) and never kept with the sources. The referee starts build/bot with
// ARENA_ADDRESS (a gRPC target, dialled as it is: unix:/PATH for its seat's socket, host:port against
// `arena serve`) and ARENA_TOKEN (the seat's token) in its environment. From the folder above this one:
//   arena check-bot NAME=NAME/build/bot
//   arena match --bot NAME=NAME/build/bot --bot rules='python -m example_bots.rules_bot'
// where NAME is this folder's name, which is also the bot's (its Hello says so).
//
// The session: Hello first, then one Action per DecisionRequest, until Shutdown (exit 0). A fatal Error, or
// a stream that ends without a Shutdown, is exit 1.

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include <grpcpp/grpcpp.h>

#include "bideuchre/v1/arena.grpc.pb.h"
#include "strategy.h"

namespace v1 = bideuchre::v1;

namespace {

// The bot's name: the name of its folder, the one holding build/bot (as arena new names a bot).
std::string folder_name() {
  std::error_code error;
  std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  std::string name = error ? "" : program.parent_path().parent_path().filename().string();
  return name.empty() ? "cpp" : name;
}

const std::string kBotName = folder_name();
const std::string kBotVersion = "1.0";

std::ostream& say() { return std::cerr << kBotName << ": "; }

}  // namespace

int main() {
  const char* address = std::getenv("ARENA_ADDRESS");
  const char* token = std::getenv("ARENA_TOKEN");
  if (address == nullptr || *address == '\0' || token == nullptr || *token == '\0') {
    say() << "set ARENA_ADDRESS (the referee's gRPC target: unix:/PATH or host:port) and ARENA_TOKEN (the seat "
             "token); `arena serve` prints both\n";
    return 2;
  }

  auto stub = v1::Arena::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->Play(&context);  // the one bidirectional stream of the session

  v1::BotMessage hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name(kBotName);
  hello.mutable_hello()->set_bot_version(kBotVersion);
  hello.mutable_hello()->set_protocol_version(1);
  stream->Write(hello);

  std::optional<strategy::Game> game;  // what GameStart said, until GameOver
  std::map<std::string, int> answered;  // decisions answered, by kind, for the goodbye line
  v1::RefereeMessage message;
  while (stream->Read(&message)) {
    switch (message.message_case()) {
      case v1::RefereeMessage::kWelcome:
        say() << "playing as " << message.welcome().player() << " (referee " << message.welcome().referee_version()
              << ")\n";
        break;
      case v1::RefereeMessage::kGameStart:
        // Everything kept per game starts afresh here; the process may play another seat next game.
        game = strategy::game_of(message.game_start());
        break;
      case v1::RefereeMessage::kDecision: {
        if (!game) {
          say() << "a request before any GameStart\n";
          context.TryCancel();
          return 1;
        }
        v1::BotMessage answer;
        *answer.mutable_action() = strategy::decide(message.decision(), *game);
        stream->Write(answer);
        ++answered[v1::DecisionKind_Name(message.decision().kind())];
        break;
      }
      case v1::RefereeMessage::kGameOver:
        game.reset();
        break;
      case v1::RefereeMessage::kError:
        say() << "referee error " << v1::ErrorCode_Name(message.error().code()) << " (request "
              << message.error().request_id() << "): " << message.error().message() << "\n";
        if (message.error().fatal()) {
          context.TryCancel();
          return 1;
        }
        break;
      case v1::RefereeMessage::kShutdown: {
        say() << "shutdown (" << message.shutdown().reason() << "); answered";
        for (const auto& [kind, count] : answered) std::cerr << " " << kind << " " << count;
        std::cerr << "\n";
        stream->WritesDone();  // half-close our side; the referee then ends the stream with status OK
        grpc::Status status = stream->Finish();
        if (!status.ok()) say() << "the stream did not end OK after the Shutdown: " << status.error_message() << "\n";
        return 0;
      }
      default:
        say() << "ignoring an unknown message\n";
    }
  }
  grpc::Status status = stream->Finish();
  say() << "the referee closed the stream without a Shutdown: " << status.error_message() << "\n";
  return 1;
}
