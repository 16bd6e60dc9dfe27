# The site's image: the same build `npm start` serves, for the nodes of docker-compose.yml
# (docs/operations.md, "Running several nodes"). One image runs a web node (`npm start`) or a worker
# (`npm run worker`). The Node version is the one package.json pins for `npm run`.
FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
EXPOSE 4321
CMD ["npm", "start"]
